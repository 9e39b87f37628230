import assert from 'node:assert/strict';
import { parse } from 'smol-toml';
import {
  AgentConfigError,
  formatPlaceholders,
  readAgentConfig,
  skillDirOf,
} from '../../../src/engine/run/agent-config';
import { agentEnv, rolePrompt } from '../../../src/engine/run/role-io';
import { objectiveSlug, runIdBase, uniqueRunId } from '../../../src/engine/run/run-id';

const values = {
  python: '/usr/bin/python 3',
  node: '/opt/node',
  config_dir: '/skills/loop/examples',
  skill_dir: '/skills/loop',
};

function config(toml: string) {
  return readAgentConfig(parse(toml), 'agents.toml', values);
}

const TABLES = `
[explorer]
cmd = ["{python}", "{skill_dir}/x.py", "{{literal}}"]
[coder]
cmd = "{python} {config_dir}/c.py"
writes = true
timeout_seconds = 60
[code-reviewer]
cmd = ["{node}"]
timeout_seconds = 0
`;

describe('run: agent config, role I/O and run ids', () => {
  it('expands placeholders: raw in arrays, shell-quoted in strings, {{ }} literal', () => {
    const c = config(TABLES);
    assert.deepEqual(c.explorer.cmd, ['/usr/bin/python 3', '/skills/loop/x.py', '{literal}']);
    assert.equal(c.coder.cmd, "'/usr/bin/python 3' /skills/loop/examples/c.py");
    assert.deepEqual(c['code-reviewer'].cmd, ['/opt/node']);
    assert.equal(c.explorer.timeoutSeconds, 300);
    assert.equal(c['code-reviewer'].timeoutSeconds, 0);
    assert.equal(skillDirOf('/skills/loop/examples'), '/skills/loop');
  });

  it('refuses what the original refused, naming the file and table', () => {
    const cases: [string, RegExp][] = [
      [TABLES.replace('[coder]', '[coderx]'), /agents\.toml: missing \[coder\]/],
      [TABLES.replace('cmd = ["{node}"]', 'cmd = 3'), /\[code-reviewer\]\.cmd must be string or array/],
      [TABLES.replace('cmd = ["{node}"]', 'cmd = ["a", 1]'), /array entries must be strings/],
      [TABLES.replace('writes = true', 'writes = false'), /coder must be write-capable/],
      [TABLES.replace('[explorer]', '[explorer]\nwrites = "false"'), /explorer must be read-only/],
      [TABLES.replace('{node}', '{nope}'), /unknown placeholder \{nope\}/],
      [
        TABLES.replace('timeout_seconds = 60', 'timeout_seconds = "soon"'),
        /timeout_seconds: expected a whole number/,
      ],
    ];
    for (const [toml, message] of cases)
      assert.throws(
        () => config(toml),
        (e: Error) => e instanceof AgentConfigError && message.test(e.message),
      );
  });

  it('str.format edge cases', () => {
    assert.equal(formatPlaceholders('{{a}}{b}', { b: 'B' }, 'x'), '{a}B');
    assert.throws(() => formatPlaceholders('a}', {}, 'x'), /single '}'/);
    assert.throws(() => formatPlaceholders('{a', {}, 'x'), /unmatched/);
  });

  it('env: every parent LOOP_* scrubbed except LOOP_FIXTURE_MODE; reserved names can never pass', () => {
    const env = agentEnv(
      {
        PATH: '/bin',
        LOOP_RUN_DIR: 'x',
        LOOP_CHECKS_JSON: 'y',
        LOOP_DIFF_PATH: 'z',
        LOOP_OTHER: '1',
        LOOP_FIXTURE_MODE: 'pass',
      },
      { LOOP_ROLE: 'coder', LOOP_RUN_DIR: 'sneaky' },
    );
    assert.deepEqual(env, {
      PATH: '/bin',
      LOOP_FIXTURE_MODE: 'pass',
      PYTHONDONTWRITEBYTECODE: '1',
      LOOP_ROLE: 'coder',
    });
  });

  it('prompts: sorted keys, indent 2, role last word', () => {
    const text = rolePrompt({ objective: 'o', allowedGlobs: ['a'], checks: [] }, 'coder', {
      attempt: 1,
      previous_findings: [],
    });
    assert.deepEqual(Object.keys(JSON.parse(text)), [
      'allowed_globs',
      'attempt',
      'checks',
      'objective',
      'previous_findings',
      'role',
    ]);
    assert.ok(text.startsWith('{\n  "allowed_globs"'));
  });

  it('run ids: UTC stamp and slug; collisions add -2, -3', () => {
    assert.equal(objectiveSlug('  Implement parse_duration("1h 30m")! '), 'implement-parse-duration-1h-30m');
    assert.equal(objectiveSlug('!!!'), 'loop');
    assert.equal(objectiveSlug('x'.repeat(60)).length, 48);
    assert.equal(runIdBase('Go', new Date('2026-03-04T05:06:07.890Z')), '20260304T050607Z-go');
    const taken = new Set(['a', 'a-2']);
    assert.equal(
      uniqueRunId('a', (c) => taken.has(c)),
      'a-3',
    );
  });
});
