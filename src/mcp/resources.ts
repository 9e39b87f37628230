// The files a client can read and watch, as loop-ledger:// URIs: each session's ledger, each
// brief packet this server assembled, and each contract (.loop/contracts/*.json, and
// *.loop-contract.json or *.loop.md at the root).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CONTRACT_LIMIT } from '../app/read-input';
import { locateLedger, listSessions, loadLedgerBytes, sessionIdProblem } from '../store';
import { readBoundedText, UnreadableFileError } from '../store/bounded-read';
import { serializeLedger } from '../store/ledger-file';
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

/** A store that could not answer (unreachable, no schema): told to the client as it is. */
export class StoreResourceError extends Error {}

function storeFailure(findings: { message: string }[]): StoreResourceError {
  return new StoreResourceError(findings.map((f) => f.message).join('; '));
}

/** The sessions with a ledger: in the store, or under the root. */
async function sessionIds(ctx: ServerContext): Promise<string[]> {
  if (!ctx.store) return listSessions(ctx.root).map((s) => s.session);
  const listed = await ctx.store.run((store) => store.list());
  if (listed.payload === undefined) throw storeFailure(listed.findings);
  return listed.payload.sessions.map((s) => s.session);
}

export async function listResources(ctx: ServerContext): Promise<ResourceEntry[]> {
  return [
    ...(await sessionIds(ctx)).map((session) => ({
      uri: `${LEDGER}${session}`,
      name: `ledger ${session}`,
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

/** The session a ledger URI names (checked against the CLI's grammar), or null for another URI. */
export function ledgerSession(uri: string): string | null {
  if (!uri.startsWith(LEDGER)) return null;
  const session = decodeURIComponent(uri.slice(LEDGER.length));
  const problem = sessionIdProblem(session);
  if (problem) throw new UnknownResource(problem);
  return session;
}

/**
 * The file behind a ledger or contract URI (briefs have none, nor a ledger in a store); refuses
 * anything outside the root.
 */
export function fileOf(ctx: ServerContext, uri: string): string | null {
  const session = ledgerSession(uri);
  if (session !== null) return ctx.store ? null : locateLedger(ctx.root, session).readPath;
  if (uri.startsWith(CONTRACT)) return confinedPath(ctx.root, decodeURI(uri.slice(CONTRACT.length)), 'uri');
  if (uri.startsWith(BRIEF)) return null;
  throw new UnknownResource(`unknown resource ${JSON.stringify(uri.slice(0, 200))}`);
}

export async function readResource(
  ctx: ServerContext,
  uri: string,
): Promise<{ uri: string; mimeType: string; text: string }> {
  if (uri.startsWith(BRIEF)) {
    const [session = '', id = ''] = uri.slice(BRIEF.length).split('/');
    const briefId = decodeURIComponent(id);
    const stored = ctx.briefs.get(briefId);
    if (stored && stored.session === session)
      return { uri, mimeType: 'application/json', text: JSON.stringify(stored.packet, null, 2) };
    // On a store, a packet assembled by another server (or machine) is kept in the store.
    if (ctx.store && sessionIdProblem(session) === null) {
      const found = await ctx.store.run((store) => store.storedBrief(session, briefId));
      if (found.exitCode === 74) throw storeFailure(found.findings);
      const packet = found.payload?.packet;
      if (packet) return { uri, mimeType: 'application/json', text: JSON.stringify(packet, null, 2) };
    }
    throw new UnknownResource(
      `no brief packet at ${uri} (${ctx.store ? 'the store keeps each session’s newest packets' : 'this server keeps the packets it assembled'})`,
    );
  }
  const session = ledgerSession(uri);
  if (session !== null && ctx.store) {
    const read = await ctx.store.run((store) => store.load(session, 'all'));
    if (read.payload === undefined) {
      if (read.exitCode === 2)
        throw new UnknownResource(`${uri}: ${read.findings[0]?.message ?? 'no ledger'}`);
      throw storeFailure(read.findings);
    }
    return { uri, mimeType: 'application/json', text: serializeLedger(read.payload.ledger) };
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
