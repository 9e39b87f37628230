// The extension host never waits on the disk. Every synchronous file call
// (`*Sync(`) and every synchronous read operation of src/app or src/store that src/extension
// could call instead of its asynchronous twin is found by scanning the source; a new one fails
// here unless it is added to the allow-list below with the reason it cannot block the window.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const EXTENSION_SRC = resolve(__dirname, '../../../../src/extension');

/**
 * Read operations that block the calling thread, by the name the extension would import; each
 * has an asynchronous twin (listOpAsync, loadLedgerAsync, statusOpAsync, scoreOpAsync,
 * readTextFileAsync, readLedgerFileAsync, listSessionsAsync, findUnfinishedRunAsync,
 * resumeContinuesRepeatNowAsync).
 * Ledger writes through src/app under the lock (iterateOp, closeOp, briefOp, …) are not listed:
 * they take one lock attempt and retry on timers, so they never hold the host while a lock is busy.
 */
const SYNC_READ_OPERATIONS = [
  'listOp',
  'loadLedger',
  'statusOp',
  'scoreOp',
  'readTextFile',
  'readInput',
  'readLedgerFile',
  'listSessions',
  'locateLedger',
  'findUnfinishedRun',
  'newestLinkedRun',
  'resumeContinuesRepeatOnDisk',
];

/**
 * Calls allowed, by file (relative to src/extension) and the exact call text, each with why it
 * cannot freeze the window. Keep it short: a new entry needs a reason a reviewer would accept.
 */
const ALLOWED: Record<string, { calls: string[]; why: string }> = {
  'testing/loadTestHooks.ts': {
    calls: ['existsSync('],
    why: 'runs only in test mode (extensionTestsPath given), once, right before a require — itself synchronous',
  },
  'sessions/workerRead.ts': {
    calls: ['import readLedgerFile'],
    why: 'imported only by the ledger worker thread (dist/overviewWorker.js), never by host code',
  },
  'overview/overviewSealed.ts': {
    calls: ['runReadSync('],
    why: "imported only by the ledger worker thread (dist/overviewWorker.js), never by host code: a long sealed ledger's charts are read there",
  },
  // Not scanned here, and still synchronous: the Work Orders view's writes (status, HALT, kill
  // switch) call the app's work-order operations (src/app/workorders/admin.ts), which read and
  // write files of a few KB once per click.
};

interface Finding {
  file: string;
  line: number;
  call: string;
}

/** Every `*Sync(` call and every import of a listed synchronous read operation in `text`. */
export function syncCallsIn(file: string, text: string): Finding[] {
  const found: Finding[] = [];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    const code = line.replace(/\/\/.*$/, '');
    for (const match of code.matchAll(/\b([A-Za-z_$][\w$]*Sync)\(/g)) {
      found.push({ file, line: index + 1, call: `${match[1]}(` });
    }
  });
  for (const match of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g)) {
    if (!/\/(app|store|drivers)\//.test(match[2]!)) continue;
    const line = text.slice(0, match.index).split('\n').length;
    for (const raw of match[1]!.split(',')) {
      const name = raw
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0]!;
      if (SYNC_READ_OPERATIONS.includes(name)) found.push({ file, line, call: `import ${name}` });
    }
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('no synchronous disk access on the extension host', () => {
  it('finds a *Sync( call and an import of a synchronous read operation (the scan can fail)', () => {
    const sample = [
      "import { listOp, type Outcome } from '../../app/operations';",
      "import { readTextFileAsync } from '../../store/read-async';",
      "const text = fs.readFileSync(path, 'utf8'); // readdirSync( in a comment is not code",
      'if (existsSync(dir)) statSync(dir);',
    ].join('\n');
    assert.deepEqual(
      syncCallsIn('sample.ts', sample).map((f) => `${f.line}:${f.call}`),
      ['3:readFileSync(', '4:existsSync(', '4:statSync(', '1:import listOp'],
    );
  });

  it('src/extension makes no synchronous file call or read outside the allow-list', () => {
    const files = sourceFiles(EXTENSION_SRC);
    assert.ok(files.length > 50, `expected the extension's sources under ${EXTENSION_SRC}`);
    const unexpected = files.flatMap((path) => {
      const file = relative(EXTENSION_SRC, path).split('\\').join('/');
      const allowed = ALLOWED[file]?.calls ?? [];
      return syncCallsIn(file, readFileSync(path, 'utf8')).filter((f) => !allowed.includes(f.call));
    });
    assert.deepEqual(
      unexpected.map((f) => `src/extension/${f.file}:${f.line} ${f.call}`),
      [],
      'use the asynchronous reader/writer (src/store/read-async.ts, writeFileAtomic, node:fs/promises)',
    );
  });

  it('every allow-list entry is still used (a stale entry would hide a new call)', () => {
    for (const [file, { calls }] of Object.entries(ALLOWED)) {
      const found = syncCallsIn(file, readFileSync(join(EXTENSION_SRC, file), 'utf8')).map((f) => f.call);
      for (const call of calls) assert.ok(found.includes(call), `${file} no longer calls ${call}`);
    }
  });
});
