// `loop-ledger-checkpoint:` URIs can be built by anything: only a workspace folder, a full hex
// commit id and a plain repository path may reach git.
import * as assert from 'node:assert/strict';
import { checkQuery, placeOf } from '../../../src/extension/checkpoints/query';

const ROOT = '/work/space';
const COMMIT = 'a'.repeat(40);
const q = (value: unknown) => JSON.stringify(value);

describe('checkpoint document query', () => {
  it('accepts a workspace folder, a full object id and a plain path', () => {
    assert.deepEqual(checkQuery(q({ root: ROOT, commit: COMMIT, shadow: false }), '/src/a b.js', [ROOT]), {
      root: ROOT,
      commit: COMMIT,
      shadow: false,
      path: 'src/a b.js',
    });
    assert.equal(
      (
        checkQuery(q({ root: ROOT, commit: 'b'.repeat(64), shadow: true }), '/x', [ROOT]) as {
          shadow: boolean;
        }
      ).shadow,
      true,
    );
  });

  it('refuses another root, a short or non-hex commit, an option, and paths that climb or are empty', () => {
    const refused = [
      checkQuery('not json', '/x', [ROOT]),
      checkQuery(q({ root: '/elsewhere', commit: COMMIT }), '/x', [ROOT]),
      checkQuery(q({ root: ROOT, commit: 'HEAD' }), '/x', [ROOT]),
      checkQuery(q({ root: ROOT, commit: COMMIT.slice(1) }), '/x', [ROOT]),
      checkQuery(q({ root: ROOT, commit: `--output=/tmp/x` }), '/x', [ROOT]),
      checkQuery(q({ root: ROOT, commit: COMMIT }), '/../etc/passwd', [ROOT]),
      checkQuery(q({ root: ROOT, commit: COMMIT }), '/src/../../x', [ROOT]),
      checkQuery(q({ root: ROOT, commit: COMMIT }), '/', [ROOT]),
      checkQuery(q({ root: ROOT, commit: COMMIT }), '/a//b', [ROOT]),
    ];
    for (const r of refused) assert.ok('refused' in r, JSON.stringify(r));
  });

  it('reads a shadow checkpoint from .loop/checkpoints.git with the root as work tree', () => {
    assert.deepEqual(placeOf(ROOT, false), { top: ROOT });
    assert.deepEqual(placeOf(ROOT, true), { top: ROOT, shadowGitDir: `${ROOT}/.loop/checkpoints.git` });
  });
});
