// JSON-RPC over stdin/stdout, one message a line, tolerant of a bad client: a line that is not
// JSON, or not JSON-RPC, is answered with the JSON-RPC error and the next line is read as usual;
// a line over MAX_LINE_BYTES is dropped as it streams in (never held whole) and answered the same
// way. The SDK's own stdio transport closes the connection on an oversized buffer, which would end
// the server for every later call. End of input closes the transport: the server then exits.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Bigger than any message a client has reason to send (a 20 MB diff travels as a path). */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private size = 0;
  /** True while the rest of an oversized line is skipped. */
  private skipping = false;
  private closed = false;

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onEnd);
    // A client gone mid-answer: stdout's EPIPE is its exit, not ours to report.
    this.output.on('error', this.onEnd);
  }

  private readonly onEnd = (): void => {
    void this.close();
  };

  private readonly onData = (chunk: Buffer | string): void => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let nl = data.indexOf(10); nl !== -1; nl = data.indexOf(10)) {
      this.take(data.subarray(0, nl));
      this.endLine();
      data = data.subarray(nl + 1);
    }
    this.take(data);
  };

  private take(part: Buffer): void {
    if (this.skipping || part.length === 0) return;
    if (this.size + part.length > MAX_LINE_BYTES) {
      this.chunks = [];
      this.size = 0;
      this.skipping = true;
      return;
    }
    this.chunks.push(part);
    this.size += part.length;
  }

  private endLine(): void {
    if (this.skipping) {
      this.skipping = false;
      this.reply(INVALID_REQUEST, `message over ${MAX_LINE_BYTES} bytes, ignored`);
      return;
    }
    const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.size = 0;
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.reply(PARSE_ERROR, 'not JSON');
      return;
    }
    const message = JSONRPCMessageSchema.safeParse(value);
    if (!message.success) {
      const id = idOf(value);
      this.reply(INVALID_REQUEST, 'not a JSON-RPC 2.0 message', id);
      return;
    }
    this.onmessage?.(message.data);
  }

  private reply(code: number, message: string, id: string | number | null = null): void {
    this.write(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }));
  }

  private write(text: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed) return resolve();
      if (this.output.write(`${text}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(JSON.stringify(message));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.onclose?.();
  }
}

function idOf(value: unknown): string | number | null {
  if (value === null || typeof value !== 'object') return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
