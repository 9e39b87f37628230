// The `loop-ledger-git:` document provider runs no git in an untrusted
// workspace, for any URI, even one that would be served when trusted; and a refused URI never
// reaches git either. Trust, folders and git are injected; the spy records every git call.
import assert from 'node:assert/strict';
import {
  revisionContent,
  UntrustedGitError,
  type RevisionContentDeps,
} from '../../../src/extension/brief/revisionContent';
import { showFileArgs } from '../../../src/drivers/git/revisions';

const ROOT = '/work/repo';

function spyDeps(trusted: boolean, answer = 'file text\n') {
  const calls: { cwd: string; args: readonly string[] }[] = [];
  let trustAsked = 0;
  const deps: RevisionContentDeps = {
    isTrusted: () => {
      trustAsked += 1;
      return trusted;
    },
    roots: () => [ROOT],
    runGit: (cwd, args) => {
      calls.push({ cwd, args });
      return Promise.resolve(answer);
    },
  };
  return { deps, calls, trustAsked: () => trustAsked };
}

const query = (root: string, rev: string, path: string) => JSON.stringify({ root, rev, path });

describe('loop-ledger-git: document content (injected trust, spied git)', () => {
  it('trusted: a workspace root, a revision and a path run exactly one pinned `git show`', async () => {
    const { deps, calls } = spyDeps(true);
    assert.equal(await revisionContent(query(ROOT, 'HEAD~1', 'src/a.ts'), '/src/a.ts', deps), 'file text\n');
    assert.deepEqual(calls, [{ cwd: ROOT, args: showFileArgs('HEAD~1', 'src/a.ts') }]);
    assert.ok(calls[0]!.args.includes('--end-of-options'));
  });

  it('untrusted: the same URI is refused and git is never run', async () => {
    const { deps, calls, trustAsked } = spyDeps(false);
    for (const q of [
      query(ROOT, 'HEAD~1', 'src/a.ts'),
      query(ROOT, ':index', 'src/a.ts'),
      query(ROOT, '', 'src/a.ts'),
      query('/elsewhere', '--output=/tmp/x', '../x'),
      'not json',
    ]) {
      await assert.rejects(revisionContent(q, '/x', deps), (error: unknown) => {
        assert.ok(error instanceof UntrustedGitError, String(error));
        assert.match((error as Error).message, /runs no git in an untrusted workspace/);
        return true;
      });
    }
    assert.deepEqual(calls, [], 'no git call at all');
    assert.equal(trustAsked(), 5, 'trust is asked on every request, not cached');
  });

  it('trust revoked between two requests: the second runs no git', async () => {
    let trusted = true;
    const { deps, calls } = spyDeps(true);
    const live = { ...deps, isTrusted: () => trusted };
    await revisionContent(query(ROOT, 'HEAD', 'a.txt'), '/a.txt', live);
    trusted = false;
    await assert.rejects(revisionContent(query(ROOT, 'HEAD', 'a.txt'), '/a.txt', live), UntrustedGitError);
    assert.equal(calls.length, 1);
  });

  it('trusted: another root, an option as revision or a path out of the repository never reach git', async () => {
    const { deps, calls } = spyDeps(true);
    for (const q of [
      query('/elsewhere', 'HEAD', 'a.txt'),
      query(ROOT, '--output=/tmp/x:src/x.txt', 'src/x.txt'),
      query(ROOT, 'HEAD', '../../etc/passwd'),
    ])
      await assert.rejects(revisionContent(q, '/x', deps), /refused/);
    assert.deepEqual(calls, []);
  });

  it('trusted: the empty revision (a file added by the change) is empty without git', async () => {
    const { deps, calls } = spyDeps(true);
    assert.equal(await revisionContent(query(ROOT, '', 'new.txt'), '/new.txt', deps), '');
    assert.deepEqual(calls, []);
  });
});
