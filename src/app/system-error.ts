// Failures that are neither the user's input nor a rule: the operating system refused a file
// operation (disk full, permission denied, read-only file system…) — exit 74 (EX_IOERR) — or the program
// itself went wrong — exit 70 (EX_SOFTWARE), which asks for a bug report. Each becomes ONE line that names the
// file and says the reason once (Node's own text repeats the code: "ENOSPC: ENOSPC: …").
import { basename } from 'node:path';

/** Where a bug report goes; the README's "Reporting a bug" section says what to include. */
export const REPORT_BUGS =
  'this is a bug in loop-ledger: please report it on the Loop Ledger issue tracker with this line and the command you ran';

/** Reasons in plain words for the codes people meet; any other code is described by Node's text. */
const REASONS = new Map<string, string>([
  ['ENOSPC', 'no space left on the device'],
  ['EDQUOT', 'disk quota exceeded'],
  ['EACCES', 'permission denied'],
  ['EPERM', 'operation not permitted'],
  ['EROFS', 'read-only file system'],
  ['EIO', 'input/output error'],
  ['EMFILE', 'too many open files in this process'],
  ['ENFILE', 'too many open files on this system'],
  ['EFBIG', 'file too large'],
  ['ENOTDIR', 'a part of the path is not a folder'],
  ['EISDIR', 'is a folder'],
  ['ELOOP', 'too many symbolic links'],
  ['ENAMETOOLONG', 'name too long'],
  ['EEXIST', 'already exists'],
  ['ENOENT', 'no such file or folder'],
]);

const VERBS = new Map<string, string>([
  ['open', 'open'],
  ['read', 'read'],
  ['write', 'write'],
  ['fsync', 'flush to disk'],
  ['fdatasync', 'flush to disk'],
  ['rename', 'replace'],
  ['mkdir', 'create the folder for'],
  ['unlink', 'remove'],
  ['rmdir', 'remove'],
  ['copyfile', 'copy'],
  ['scandir', 'list'],
  ['stat', 'inspect'],
  ['lstat', 'inspect'],
  ['fstat', 'inspect'],
  ['close', 'close'],
]);

type Errno = NodeJS.ErrnoException & { dest?: string };

/** True for an error the operating system raised about a file (it carries an `E…` code). */
export function isSystemError(error: unknown): error is Errno {
  if (!(error instanceof Error)) return false;
  const code = (error as Errno).code;
  return (
    typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) && typeof (error as Errno).syscall === 'string'
  );
}

/** The reason once: plain words for a known code, else Node's text without its `CODE: ` prefix. */
export function systemReason(error: Errno): string {
  const code = error.code as string;
  const known = REASONS.get(code);
  if (known) return `${known} (${code})`;
  const text = error.message.startsWith(`${code}: `) ? error.message.slice(code.length + 2) : error.message;
  const words = text.split(', ')[0] ?? text;
  return `${words} (${code})`;
}

/**
 * `<file>: cannot <verb>: <reason> (<CODE>)`. `file` is what the user knows (the ledger) and is
 * named first; the path the system call failed on is added when it is another file, except the
 * ledger's own hidden temporary file, which is an implementation detail.
 */
export function systemFailureMessage(error: Errno, file?: string): string {
  const syscall = error.syscall ?? '';
  // A driver's `spawn git` / `spawnSync git` failing names the program it could not run.
  const verb = syscall.startsWith('spawn') ? 'run' : (VERBS.get(syscall) ?? 'access');
  const at = error.path;
  const named = file ?? at;
  const temp = file !== undefined && at !== undefined && basename(at).startsWith(`.${basename(file)}.`);
  const where = at !== undefined && named !== at && !temp ? ` (at ${at})` : '';
  const head = named === undefined ? '' : `${named}: `;
  return `${head}cannot ${verb}: ${systemReason(error)}${where}`;
}

/** One line for an error nobody anticipated, with where to report it. */
export function internalErrorMessage(error: unknown): string {
  const text =
    error instanceof Error ? `${error.name}: ${error.message}` : `non-error value thrown: ${String(error)}`;
  return `internal error (${text.split('\n')[0]}); ${REPORT_BUGS}`;
}

/**
 * True when a ledger read verdict says the system would not let the file be read (the store
 * reports it as `cannot be read (EACCES)`): that is exit 74, and `open --force` is no remedy.
 */
export function unreadableBySystem(reason: string): boolean {
  return /\bcannot be read\b/.test(reason) && /\b(EACCES|EPERM|EIO|EMFILE|ENFILE)\b/.test(reason);
}
