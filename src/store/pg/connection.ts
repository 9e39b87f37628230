// One connection to the PostgreSQL store for a command, and the retry around each unit of work:
// a connection lost (server restarted, network cut) is reopened and the unit sent again, until
// the retry window closes. Units are whole transactions, so sending one again is safe; a write
// whose commit happened but whose reply was lost is recognised by its request id (pg-ledger.ts).
import { Client } from 'pg';
import { storeAddress, type StoreAddress } from './address';
import { connectionReason, isTransient, StoreUnreachableError, tlsReason } from './errors';
import { checkSchema } from './schema';
import { driverConnectionString } from './ssl-mode';

export interface ConnectionOptions {
  url: string;
  /** How long to keep reconnecting after a connection failure (ms). */
  retryMs: number;
}

export class StoreConnection {
  readonly address: StoreAddress;
  private client: Client | null = null;
  /** The unit running now (units take turns: see run). */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ConnectionOptions) {
    this.address = storeAddress(options.url);
  }

  /**
   * Runs `unit` on a live connection; `checked` false skips the schema check (`store migrate`).
   * Units take turns: a process serving many calls at once (the MCP server, the extension's
   * reads) shares the one connection, and two transactions interleaved on it would be one.
   * A unit must not call run itself (it would wait for its own turn).
   */
  run<T>(unit: (client: Client) => Promise<T>, checked = true): Promise<T> {
    const mine = this.turn.then(() => this.runNow(unit, checked));
    this.turn = mine.catch(() => undefined);
    return mine;
  }

  private async runNow<T>(unit: (client: Client) => Promise<T>, checked: boolean): Promise<T> {
    const deadline = Date.now() + this.options.retryMs;
    let wait = 50;
    for (;;) {
      try {
        const client = await this.connected(checked);
        return await unit(client);
      } catch (error) {
        const tls = tlsReason(error);
        if (tls !== null) throw new StoreUnreachableError(this.address.label, tls);
        if (!isTransient(error)) throw error;
        await this.drop();
        if (Date.now() + wait > deadline)
          throw new StoreUnreachableError(this.address.label, connectionReason(error));
        await new Promise((resolve) => setTimeout(resolve, wait));
        wait = Math.min(wait * 2, 1000);
      }
    }
  }

  private async connected(checked: boolean): Promise<Client> {
    if (this.client !== null) return this.client;
    const client = new Client({
      connectionString: driverConnectionString(this.options.url),
      connectionTimeoutMillis: 5000,
      application_name: 'loop-ledger',
    });
    // A connection dropped while idle is reported on the next query; no crash in between.
    client.on('error', () => undefined);
    try {
      await client.connect();
      if (checked) await checkSchema(client, this.address.label);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
    return client;
  }

  private async drop(): Promise<void> {
    const client = this.client;
    this.client = null;
    if (client !== null) await client.end().catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.drop();
  }
}

/** `read` inside one read-only REPEATABLE READ transaction: every row from one moment. */
export async function snapshot<T>(client: Client, read: () => Promise<T>): Promise<T> {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    const value = await read();
    await client.query('COMMIT');
    return value;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
