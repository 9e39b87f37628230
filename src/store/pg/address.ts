// What may be said about a PostgreSQL store's connection string: the host, port and database,
// never the password. Every message the PostgreSQL store prints passes through `redact`.

export interface StoreAddress {
  /** `host:port/database` (a unix socket folder stands for the host). */
  label: string;
  /** The password as written and as decoded, to strip from any text. */
  secrets: string[];
}

/** True for the connection strings a PostgreSQL store is selected with. */
export function isPostgresUrl(text: string): boolean {
  return /^postgres(ql)?:\/\//i.test(text);
}

export function storeAddress(url: string): StoreAddress {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { label: 'an unparsable connection string', secrets: passwordGuess(url) };
  }
  const socket = parsed.searchParams.get('host');
  const host = parsed.hostname !== '' ? parsed.hostname : (socket ?? 'localhost');
  const port = parsed.port !== '' ? parsed.port : (parsed.searchParams.get('port') ?? '5432');
  const database =
    decodeSafe(parsed.pathname.replace(/^\//, '')) || decodeSafe(parsed.username) || 'postgres';
  const secrets = [parsed.password, decodeSafe(parsed.password), ...passwordGuess(url)];
  const query = parsed.searchParams.get('password');
  if (query) secrets.push(query);
  return { label: `${host}:${port}/${database}`, secrets: secrets.filter((s) => s.length > 0) };
}

/** `user:password@` as written, for a string URL cannot parse. */
function passwordGuess(url: string): string[] {
  const m = /^[a-z]+:\/\/[^:@/]*:([^@]*)@/i.exec(url);
  return m && m[1] ? [m[1], decodeSafe(m[1])] : [];
}

function decodeSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `text` with every spelling of the password replaced by `***`. */
export function redact(text: string, address: StoreAddress): string {
  let out = text;
  for (const secret of address.secrets) out = out.split(secret).join('***');
  return out;
}
