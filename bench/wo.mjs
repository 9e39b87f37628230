// `npm run bench` (work orders): `wo reconcile-table` over 1,000 work orders and `wo obs-report`
// over 10,000 obs records, spawn to exit as an agent sees it, printed as medians and as
// multiples of a bare `node -e 0` measured in the same interleaved rounds (A, B, C, A, B, C…).
// Aim: each under 300 ms. A benchmark, not a test: it prints and exits 0 unless a command fails.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CLI = new URL('../dist/cli.js', import.meta.url).pathname;
const ROUNDS = Number(process.env.BENCH_WO_ROUNDS ?? 12);
const WARMUP = 2;
const AIM_MS = 300;

const env = { ...process.env };
delete env.NODE_OPTIONS;
delete env.NODE_EXTRA_CA_CERTS;

const work = mkdtempSync(join(tmpdir(), 'loop-ledger-bench-wo-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

// 1,000 work orders with a realistic mix of sidecars; 10,000 obs records over them.
const dir = join(work, 'task', 'work-orders');
mkdirSync(dir, { recursive: true });
const statuses = ['ready', 'blocked', 'in_progress', 'done', 'needs_rework'];
for (let i = 1; i <= 1000; i += 1) {
  const id = `wo-${String(i).padStart(4, '0')}`;
  const status = statuses[i % statuses.length];
  writeFileSync(
    join(dir, `${id}-part-${i}.md`),
    `---\nid: local:bench#${id}\nkind: work-order\nstatus: ${status}\nblocked_by: [${i > 1 ? `local:bench#wo-${String(i - 1).padStart(4, '0')}` : ''}]\nverified: true\ncoverage_status: covered\n---\n## Goal\nPart ${i}.\n## Files to touch\n- \`src/${id}.ts\`\n`,
  );
  if (i % 2 === 0)
    writeFileSync(
      join(dir, `${id}.run.json`),
      JSON.stringify({
        wo: id,
        attempts: 1 + (i % 3),
        checkpoint_before: 'a'.repeat(40),
        checkpoint_after: i % 4 === 0 ? 'b'.repeat(40) : null,
        halted: i % 50 === 0,
      }),
    );
  if (i % 4 === 0)
    writeFileSync(
      join(dir, `${id}._review.json`),
      JSON.stringify({ gate_specific: { overall_verdict: i % 8 === 0 ? 'pass' : 'fail' } }),
    );
  if (i % 8 === 0)
    writeFileSync(
      join(dir, `${id}._critique.json`),
      JSON.stringify({ overall: 'pass', blocking: false, risk_tier: 'low' }),
    );
  if (i % 100 === 0)
    writeFileSync(
      join(dir, `${id}.HALT`),
      JSON.stringify({ wo_id: id, reason: 'retry_cap_exhausted', at: '2026-01-01T00:00:00Z' }),
    );
}
const dispositions = ['done', 'needs_rework', 'terminal_halt', 'terminal_escalated'];
const lines = [];
for (let r = 0; r < 10_000; r += 1) {
  const i = 1 + (r % 1000);
  lines.push(
    JSON.stringify({
      schema_version: '1.0',
      wo_id: `wo-${String(i).padStart(4, '0')}`,
      recorded_at: '2026-01-01T00:00:00Z',
      disposition: dispositions[r % 4],
      attempts: 1 + (r % 3),
      halted: r % 4 === 2,
      halt_reason: r % 4 === 2 ? 'retry_cap_exhausted' : null,
      halt_marker_present: r % 4 === 2,
      review_verdict: r % 2 ? 'pass' : 'fail',
      critique_overall: 'pass',
      critique_blocking: false,
      critique_tier: 'low',
    }),
  );
}
writeFileSync(join(dir, 'loop-obs.ndjson'), lines.join('\n') + '\n');

function time(args) {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env, encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) {
    console.error(
      `bench: ${args.join(' ').slice(0, 200)} exited ${r.status}\n${String(r.stderr).slice(0, 1000)}`,
    );
    process.exit(1);
  }
  return ms;
}

// An empty folder separates the fixed cost (loading the CLI and the kernel) from the per-file one.
const empty = join(work, 'empty');
mkdirSync(empty);
const cases = {
  'node -e 0': ['-e', '0'],
  'wo reconcile-table (empty folder)': [CLI, 'wo', 'reconcile-table', empty],
  'wo reconcile-table (1,000 WOs)': [CLI, 'wo', 'reconcile-table', dir],
  'wo obs-report (10,000 records)': [CLI, 'wo', 'obs-report', dir],
};
const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let round = 0; round < WARMUP + ROUNDS; round += 1) {
  for (const [name, args] of Object.entries(cases)) {
    const ms = time(args);
    if (round >= WARMUP) samples[name].push(ms);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = median(samples['node -e 0']);
console.log(
  `work orders: ${ROUNDS} interleaved rounds after ${WARMUP} warm-up; baseline node -e 0 = ${base.toFixed(1)} ms`,
);
for (const name of Object.keys(cases).slice(1)) {
  const m = median(samples[name]);
  console.log(
    `  ${name.padEnd(34)} median ${m.toFixed(1).padStart(7)} ms = ${(m / base).toFixed(2)}x node -e 0${name.includes('empty') ? '' : `   aim < ${AIM_MS} ms: ${m < AIM_MS ? 'met' : 'NOT met'}`}`,
  );
}
