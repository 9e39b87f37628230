// Which changed paths the harness never counts: its own `.loop/` folder at the
// root, Python caches. Everything else git reports is a change an agent or check made.
import { isOwnWrite } from '../own-writes';

export function ignoredPath(path: string): boolean {
  const p = path.replace(/\\/g, '/');
  return isOwnWrite(p) || `/${p}/`.includes('/__pycache__/') || p.endsWith('.pyc') || p.endsWith('.pyo');
}
