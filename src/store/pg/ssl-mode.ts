// The connection string as handed to the `pg` driver. Its parser treats sslmode=prefer, require
// and verify-ca as verify-full (TLS required, certificate and host name checked; no fallback to
// a plain connection) and says so in a ten-line warning on stderr in every process. Naming
// verify-full for those three keeps that behaviour and keeps a command's stderr to its own lines.
// `disable` is a plain connection; `no-verify` (the driver's own) is TLS without the checks.

const TREATED_AS_VERIFY_FULL = new Set(['prefer', 'require', 'verify-ca']);

export function driverConnectionString(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url; // the driver tells what is wrong with it
  }
  const mode = parsed.searchParams.get('sslmode');
  if (mode === null || !TREATED_AS_VERIFY_FULL.has(mode)) return url;
  parsed.searchParams.set('sslmode', 'verify-full');
  return parsed.toString();
}
