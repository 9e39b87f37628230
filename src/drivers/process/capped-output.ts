// What is kept of one output stream of a child: the first and the last bytes up to a cap, and a
// count of what was dropped between them. A child may print without end (an agent printing a
// gigabyte); holding all of it made the parent run out of memory and die on a string too long
// for V8, so past the cap only the head and the tail are kept and the text says how much is gone.

/** Kept of each stream by default: 8 MiB from the start and 8 MiB from the end. */
export const DEFAULT_KEEP_BYTES = 16 * 1024 * 1024;

export class CappedOutput {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  /** Bytes seen in all. */
  total = 0;

  constructor(private readonly keepBytes: number = DEFAULT_KEEP_BYTES) {}

  private get headCap(): number {
    return Math.ceil(this.keepBytes / 2);
  }

  private get tailCap(): number {
    return this.keepBytes - this.headCap;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.headBytes < this.headCap) {
      const take = Math.min(this.headCap - this.headBytes, rest.length);
      this.head.push(rest.subarray(0, take));
      this.headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0) return;
    this.tail.push(rest);
    this.tailBytes += rest.length;
    // Drop whole chunks from the front while what is left still covers the tail's cap.
    while (this.tail.length > 1 && this.tailBytes - (this.tail[0] as Buffer).length >= this.tailCap) {
      this.tailBytes -= (this.tail.shift() as Buffer).length;
    }
    // Compact now and then, so a stream of tiny chunks does not keep a long list.
    if (this.tail.length > 1024) {
      const joined = Buffer.concat(this.tail);
      this.tail = [joined.subarray(Math.max(0, joined.length - this.tailCap))];
      this.tailBytes = (this.tail[0] as Buffer).length;
    }
  }

  /** Bytes between the head and the tail that were not kept. */
  get dropped(): number {
    return Math.max(0, this.total - this.headBytes - Math.min(this.tailBytes, this.tailCap));
  }

  /** The kept text; when bytes were dropped, one line between head and tail says how many. */
  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const tailAll = Buffer.concat(this.tail);
    const tail = tailAll.subarray(Math.max(0, tailAll.length - this.tailCap)).toString('utf8');
    const dropped = this.dropped;
    if (dropped === 0) return head + tail;
    return `${head}\n[loop-ledger: ${dropped} bytes of output dropped here; the first and last ${this.headCap} bytes are kept]\n${tail}`;
  }
}
