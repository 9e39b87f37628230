// How a PostgreSQL failure is told: an unreachable or dropped server is the system refusing
// (exit 74), one line naming the host; a schema this tool does not know is a usage error.

/** Thrown when the server cannot be reached (after the retry window). */
export class StoreUnreachableError extends Error {
  constructor(label: string, reason: string) {
    super(`cannot reach the PostgreSQL ledger store at ${label}: ${reason}`);
    this.name = 'StoreUnreachableError';
  }
}

/** The database has no schema, or a schema newer than this tool's. */
export class StoreSchemaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreSchemaError';
  }
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOENT', // a unix socket that is not there (server down)
]);

/**
 * Failures after which the same request may simply be sent again: the connection went away
 * (server restart, network cut), the server is starting or stopping, or PostgreSQL asked for a
 * retry (serialization failure, deadlock).
 */
export function isTransient(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown };
  const code = typeof e?.code === 'string' ? e.code : '';
  if (CONNECTION_CODES.has(code)) return true;
  // SQLSTATE classes 08 (connection exception) and 57P0x (operator intervention: shutdown,
  // cannot connect now), 40001 serialization failure and 40P01 deadlock.
  if (/^08/.test(code) || /^57P0[1-4]$/.test(code) || code === '40001' || code === '40P01') return true;
  const message = typeof e?.message === 'string' ? e.message : '';
  return /Connection terminated|connection timeout|timeout expired|Client has encountered a connection error|not queryable/i.test(
    message,
  );
}

// Node's TLS certificate failures: the server answered, but not as the connection string asked.
const CERTIFICATE_CODES =
  /^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|CERT_HAS_EXPIRED|CERT_NOT_YET_VALID|CERT_UNTRUSTED|CERT_REJECTED|ERR_TLS_CERT_ALTNAME_INVALID|HOSTNAME_MISMATCH)$/;

/**
 * The reason a TLS connection could not be made (the server has no TLS, or its certificate was
 * not accepted), or null for any other failure. Sending the request again cannot help, so it is
 * told at once; it is still the store not being reachable as asked (exit 74), not a usage error.
 */
export function tlsReason(error: unknown): string | null {
  const e = error as { code?: unknown; message?: unknown };
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = typeof e?.message === 'string' ? (e.message.split('\n')[0] ?? '') : '';
  if (/server does not support SSL connections/i.test(message))
    return 'the server does not support SSL connections (use sslmode=disable only on a trusted network)';
  if (CERTIFICATE_CODES.test(code))
    return `the server's TLS certificate was not accepted: ${message} (sslrootcert=PATH names the CA)`;
  return null;
}

/** A short reason for a connection failure (no connection details: the caller names the host). */
export function connectionReason(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown };
  const code = typeof e?.code === 'string' ? e.code : '';
  const tls = tlsReason(error);
  if (tls !== null) return tls;
  const reasons: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset',
    ENOTFOUND: 'no such host',
    EAI_AGAIN: 'the host name could not be resolved',
    ETIMEDOUT: 'timed out',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    ENOENT: 'no server socket there',
    '57P01': 'the server is shutting down',
    '57P03': 'the server is starting up',
  };
  if (reasons[code]) return reasons[code] as string;
  const message = typeof e?.message === 'string' ? e.message.split('\n')[0] : String(error);
  return message ?? 'unknown failure';
}
