// The files a client can read and watch, as loop-ledger:// URIs: each session's ledger, each
// brief packet this server assembled, and each contract (.loop/contracts/*.json, and
// *.loop-contract.json or *.loop.md at the root).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CONTRACT_LIMIT } from '../app/read-input';
import { locateLedger, listSessions, loadLedgerBytes, sessionIdProblem } from '../store';
import { readBoundedText, UnreadableFileError } from '../store/bounded-read';
import { briefUri } from './brief-store';
import type { ServerContext } from './context';
import { confinedPath } from './confine';

export interface ResourceEntry {
  uri: string;
  name: string;
  mimeType: string;
}

const LEDGER = 'loop-ledger://ledger/';
const BRIEF = 'loop-ledger://brief/';
const CONTRACT = 'loop-ledger://contract/';

export const TEMPLATES = [
  { uriTemplate: `${LEDGER}{session}`, name: 'ledger', mimeType: 'application/json' },
  { uriTemplate: `${BRIEF}{session}/{brief_id}`, name: 'brief packet', mimeType: 'application/json' },
  { uriTemplate: `${CONTRACT}{path}`, name: 'contract', mimeType: 'text/plain' },
];

function contractFiles(root: string): string[] {
  const names = (dir: string): string[] => {
    try {
      return readdirSync(join(root, dir));
    } catch {
      return [];
    }
  };
  return [
    ...names('.loop/contracts')
      .filter((n) => n.endsWith('.json'))
      .map((n) => `.loop/contracts/${n}`),
    ...names('.').filter((n) => n.endsWith('.loop-contract.json') || n.endsWith('.loop.md')),
  ].sort();
}

export function listResources(ctx: ServerContext): ResourceEntry[] {
  return [
    ...listSessions(ctx.root).map((s) => ({
      uri: `${LEDGER}${s.session}`,
      name: `ledger ${s.session}`,
      mimeType: 'application/json',
    })),
    ...ctx.briefs.all().map((b) => ({
      uri: briefUri(b.session, b.packet.brief_id),
      name: `brief ${b.packet.brief_id}`,
      mimeType: 'application/json',
    })),
    ...contractFiles(ctx.root).map((p) => ({
      uri: `${CONTRACT}${encodeURI(p)}`,
      name: `contract ${p}`,
      mimeType: 'text/plain',
    })),
  ];
}

export class UnknownResource extends Error {}

/** The file behind a ledger or contract URI (briefs have none); refuses anything outside the root. */
export function fileOf(ctx: ServerContext, uri: string): string | null {
  if (uri.startsWith(LEDGER)) {
    const session = decodeURIComponent(uri.slice(LEDGER.length));
    const problem = sessionIdProblem(session);
    if (problem) throw new UnknownResource(problem);
    return locateLedger(ctx.root, session).readPath;
  }
  if (uri.startsWith(CONTRACT)) return confinedPath(ctx.root, decodeURI(uri.slice(CONTRACT.length)), 'uri');
  if (uri.startsWith(BRIEF)) return null;
  throw new UnknownResource(`unknown resource ${JSON.stringify(uri.slice(0, 200))}`);
}

export function readResource(
  ctx: ServerContext,
  uri: string,
): { uri: string; mimeType: string; text: string } {
  if (uri.startsWith(BRIEF)) {
    const [session, id] = uri.slice(BRIEF.length).split('/');
    const stored = ctx.briefs.get(decodeURIComponent(id ?? ''));
    if (!stored || stored.session !== session)
      throw new UnknownResource(`no brief packet at ${uri} (this server keeps the packets it assembled)`);
    return { uri, mimeType: 'application/json', text: JSON.stringify(stored.packet, null, 2) };
  }
  const file = fileOf(ctx, uri) as string;
  // Read as the store reads them, never with a plain readFile: a ledger through the ledger's own
  // reader (no symlink, no FIFO, at most the ledger size limit), a contract through the bounded
  // reader (a regular file of at most 1 MiB), so a FIFO or /dev/zero a cloned repository carries
  // in their place cannot hang or swell the server.
  let text: string;
  if (uri.startsWith(LEDGER)) {
    const bytes = loadLedgerBytes(file);
    if (!Buffer.isBuffer(bytes))
      throw new UnknownResource(`${uri}: ${bytes.kind === 'corrupt' ? bytes.reason : 'no such file'}`);
    text = bytes.toString('utf8');
  } else {
    try {
      text = readBoundedText(file, CONTRACT_LIMIT);
    } catch (error) {
      if (!(error instanceof UnreadableFileError)) throw error;
      throw new UnknownResource(`${uri}: ${error.missing ? 'no such file' : error.reason}`);
    }
  }
  return { uri, mimeType: uri.startsWith(LEDGER) ? 'application/json' : 'text/plain', text };
}
