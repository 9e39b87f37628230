// Python's round(x, 4): nearest, ties to even on the exact binary value. toFixed rounds exact
// ties away from zero, so the one case where they differ (x·32 an odd integer, i.e. the fifth
// decimal is an exact 5) is handled explicitly.
export function round4(x: number): number {
  if (!Number.isFinite(x)) return x;
  const t = x * 32;
  if (Number.isInteger(t) && t % 2 !== 0 && Math.abs(x) < 2 ** 40) {
    const s = x * 10000; // exact here: x = t/32, so s = t·312.5
    const floor = Math.floor(s);
    if (s - floor === 0.5) return (floor % 2 === 0 ? floor : floor + 1) / 10000;
  }
  return Number(x.toFixed(4));
}
