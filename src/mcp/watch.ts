// resources/subscribe: a file is watched with fs.watch on its folder (atomic writes replace the
// file, so a watch on the file itself would go deaf after the first write) and, where fs.watch
// misses events (network and some container file systems), a stat poll. Either one only
// prompts a stat: a notification goes out when the file's identity, size or time really changed,
// so another process's write is seen once, however many events it raised.
import { statSync, unwatchFile, watch, watchFile, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

const POLL_MS = 1000;

function signature(file: string): string {
  try {
    const s = statSync(file, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return 'absent';
  }
}

interface Watched {
  file: string;
  last: string;
  watcher: FSWatcher | null;
  poll: () => void;
}

export class FileWatch {
  private readonly watched = new Map<string, Watched>();

  constructor(private readonly changed: (uri: string) => void) {}

  add(uri: string, file: string): void {
    if (this.watched.has(uri)) return;
    const entry: Watched = { file, last: signature(file), watcher: null, poll: () => this.check(uri) };
    try {
      entry.watcher = watch(dirname(file), { persistent: false }, (_event, name) => {
        if (name === null || String(name) === basename(file)) this.check(uri);
      });
      entry.watcher.on('error', () => undefined); // the poll still covers it
    } catch {
      entry.watcher = null; // no folder yet, or no fs.watch here: the poll covers it
    }
    watchFile(file, { interval: POLL_MS, persistent: false }, entry.poll);
    this.watched.set(uri, entry);
  }

  remove(uri: string): void {
    const entry = this.watched.get(uri);
    if (!entry) return;
    entry.watcher?.close();
    unwatchFile(entry.file, entry.poll);
    this.watched.delete(uri);
  }

  closeAll(): void {
    for (const uri of [...this.watched.keys()]) this.remove(uri);
  }

  private check(uri: string): void {
    const entry = this.watched.get(uri);
    if (!entry) return;
    const now = signature(entry.file);
    if (now === entry.last) return;
    entry.last = now;
    this.changed(uri);
  }
}
