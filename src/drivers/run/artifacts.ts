// Writes inside one run directory: never outside it, never through a symlinked folder, always an
// exclusive temporary file renamed into place (a reader sees the old file or the new one).
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { confineWrite, OutsideRootError } from '../../store/confine';

export class ArtifactWriteError extends Error {}

export class RunDirectory {
  /** Absolute path of the run directory. */
  readonly path: string;

  constructor(
    readonly repo: string,
    readonly relPath: string,
  ) {
    this.path = resolve(repo, relPath);
  }

  /** A path inside the run directory, relative to the repository (`/`-separated). */
  repoRelative(inside: string): string {
    return relative(this.repo, join(this.path, inside)).split(sep).join('/');
  }

  abs(inside: string): string {
    return join(this.path, inside);
  }

  private async assertInside(target: string): Promise<void> {
    const rel = relative(this.path, target);
    if (rel === '' || rel.startsWith('..') || resolve(this.path, rel) !== target)
      throw new ArtifactWriteError(`artifact path is outside run dir: ${target}`);
    // The run folder itself, and every folder above it, must resolve inside the repository.
    try {
      confineWrite(this.repo, target, { folderOnly: true });
    } catch (error) {
      if (error instanceof OutsideRootError) throw new ArtifactWriteError(error.message);
      throw error;
    }
    // Every folder from the run dir down to the file's parent must be a real folder.
    let current = this.path;
    for (const part of rel.split(sep).slice(0, -1)) {
      current = join(current, part);
      try {
        if ((await lstat(current)).isSymbolicLink())
          throw new ArtifactWriteError(`artifact parent is a symlink: ${current}`);
      } catch (error) {
        if (error instanceof ArtifactWriteError) throw error;
        return; // does not exist yet: mkdir makes a real folder
      }
    }
  }

  /** `durable` adds an fsync before the rename (the ending file, the receipt); a process crash loses nothing either way. */
  async write(inside: string, data: string, durable = false): Promise<string> {
    const target = resolve(this.path, inside);
    await this.assertInside(target);
    await mkdir(dirname(target), { recursive: true });
    await this.assertInside(target);
    const tmp = join(
      dirname(target),
      `.${inside.split('/').pop()}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`,
    );
    let handle;
    try {
      handle = await open(tmp, 'wx');
      await handle.writeFile(data, 'utf8');
      if (durable) await handle.sync();
      await handle.close();
      handle = undefined;
      await rename(tmp, target);
    } catch (error) {
      await handle?.close().catch(() => undefined);
      await rm(tmp, { force: true }).catch(() => undefined);
      if (error instanceof ArtifactWriteError) throw error;
      throw new ArtifactWriteError(`could not write ${target}: ${(error as Error).message}`);
    }
    return target;
  }

  async writeJson(inside: string, value: unknown, durable = false): Promise<string> {
    return this.write(inside, JSON.stringify(value, null, 2) + '\n', durable);
  }
}
