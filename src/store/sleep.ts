// A synchronous sleep for the store's short waits (lock backoff, a Windows rename retry).
// Atomics.wait blocks the thread without spinning the CPU; the buffer is made on first use so
// a CLI run that never waits allocates nothing.

let cell: Int32Array | undefined;

export function sleepSync(ms: number): void {
  if (ms <= 0) return;
  cell ??= new Int32Array(new SharedArrayBuffer(4));
  Atomics.wait(cell, 0, 0, ms);
}
