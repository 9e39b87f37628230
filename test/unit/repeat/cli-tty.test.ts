// repeat on a terminal: pauses are asked at a pseudo-terminal (util-linux `script` gives the CLI
// a real TTY), an unclear answer is read back and asked again, end of input leaves it paused.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { CLI, childEnv } from '../helpers/cli';
import { classifications, STEP, workspace } from './workspace';

const STUCK = 'Recommend extracting a shared validator; verification failed';
const hasScript = spawnSync('script', ['--version']).status === 0;

/** Runs `loop-ledger repeat …` under a pseudo-terminal; types each reply once its prompt shows. */
function onTerminal(
  plan: string,
  args: string[],
  replies: [RegExp, string][],
): Promise<{ code: number | null; out: string }> {
  const command = [process.execPath, CLI, 'repeat', ...args]
    .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
    .join(' ');
  return new Promise((resolve) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: childEnv({ REPEAT_PLAN: plan, CI: '' }),
    });
    let out = '';
    let seen = 0;
    child.stdout.on('data', (d) => {
      out += d;
      const next = replies[0];
      if (next && next[0].test(out.slice(seen))) {
        replies.shift();
        seen = out.length;
        child.stdin.write(next[1]);
      }
    });
    // Nothing may hang: a run that outlives this is a failure, reported with what it printed.
    const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, out: out.replace(/\r/g, '') });
    });
  });
}

describe('repeat CLI on a terminal (pseudo-terminal via script)', function () {
  before(function () {
    if (!hasScript)
      throw new Error('util-linux `script` is needed for the terminal tests (apt install bsdutils)');
  });

  it('asks at the stall pause; "sure" is read back, not acted on; "skip" continues to a settle', async () => {
    const ws = workspace('fs');
    ws.setPlan([{ summary: STUCK }, { summary: STUCK }, { summary: STUCK }, { summary: 'No findings' }]);
    const r = await onTerminal(
      ws.plan,
      ['--root', ws.root, '--session', ws.session, '--', 'node', STEP],
      [
        [/answer \(/, 'sure\n'],
        [/please confirm[^]*answer \(/, 'skip\n'],
      ],
    );
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /Stalled after 3 consecutive iterations/);
    assert.match(r.out, /answer \(retry \/ skip \/ abandon \/ change-scope\): sure/);
    assert.match(r.out, /I read that as retry — please confirm with retry or choose another option/);
    assert.match(r.out, /## Convergence summary/);
    const ledger = ws.ledger();
    assert.deepEqual(classifications(ledger), ['stalled', 'stalled', 'stalled', 'settled']);
    assert.equal(ledger.repeat.resolutions['3'], 'skipped');
    assert.match(ws.log()[3]?.directive ?? '', /deferred/);
  });

  it('end of input at the prompt leaves the loop paused (exit 11) with the question saved', async () => {
    const ws = workspace('fs');
    ws.setPlan([{ summary: STUCK }]);
    const r = await onTerminal(
      ws.plan,
      ['--root', ws.root, '--session', ws.session, '--', 'node', STEP],
      [[/answer \(/, '\x04']],
    );
    assert.equal(r.code, 11, r.out);
    assert.equal(ws.ledger().final_outcome, 'pause');
    assert.equal(ws.ledger().repeat.status, 'paused');
  });

  it('--non-interactive never prompts, even on a terminal', async () => {
    const ws = workspace('fs');
    ws.setPlan([{ summary: STUCK }]);
    const r = await onTerminal(
      ws.plan,
      ['--root', ws.root, '--session', ws.session, '--non-interactive', '--', 'node', STEP],
      [[/./, 'retry\n']],
    );
    assert.equal(r.code, 11, r.out);
    assert.doesNotMatch(r.out, /answer \(retry/);
    assert.equal(ws.log().length, 3);
  });
});
