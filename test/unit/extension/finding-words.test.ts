// Refusals in the UI's words: the engine's own findings (drop-in CLI wording, flags included)
// carry their fields, and the extension names each field as its form and quick input do.
import * as assert from 'node:assert/strict';
import { iterate } from '../../../src/engine/iterate';
import { isRefusal } from '../../../src/engine/refusal';
import type { Ledger } from '../../../src/engine/types';
import { inUiWords, runFindingInUiWords, sentence } from '../../../src/extension/findingWords';
import { sampleLedger } from '../store/fixtures/sample-ledger';

describe('findings in the UI’s words', () => {
  it('names fields as the form labels them, never as CLI flags, each finding a sentence', () => {
    const ledger = {
      ...sampleLedger(),
      pending_brief: { brief_id: 'abcdef0123456789' },
    } as unknown as Ledger;
    const result = iterate(ledger, {
      outcome: 'continue',
      criticVerdict: 'PASS',
      criticBrief: 'abcdef0123456789',
      criticNext: '  ',
      evidencePaths: [],
      now: new Date('2026-01-01T00:00:00Z'),
    } as unknown as Parameters<typeof iterate>[1]);
    assert.ok(isRefusal(result), 'refused');
    const byCode = new Map(result.findings.map((f) => [f.code, f]));
    const next = byCode.get('no-critic-next')!;
    const paths = byCode.get('no-evidence-path')!;
    // The CLI keeps its words; the fields ride along.
    assert.match(next.message, /^--critic-verdict needs --critic-next/);
    assert.deepEqual(next.fields, ['critic_verdict', 'critic_next']);
    assert.deepEqual(paths.fields, ['critic_verdict', 'evidence_paths']);
    assert.equal(
      inUiWords(next),
      '“Verdict” needs “Critic next”: the single most valuable next improvement.',
    );
    assert.equal(inUiWords(paths), '“Verdict” needs at least one entry in “Evidence paths”.');
  });

  it('leaves a message without fields as it is, apart from making it a sentence', () => {
    assert.equal(inUiWords({ message: 'diff is empty' }), 'Diff is empty.');
    assert.equal(sentence('already a sentence.'), 'Already a sentence.');
  });
});

describe('Run Loop refusals in the UI’s words', () => {
  it('names each flag Run Loop asks about as its question does, and ends each with a full stop', () => {
    assert.equal(
      runFindingInUiWords('--agent-config agents.toml: invalid TOML: expected "=" at line 2'),
      '“Agent config” agents.toml: invalid TOML: expected "=" at line 2.',
    );
    assert.equal(
      runFindingInUiWords(
        '--session s1: run r1 is unfinished with a different --max-attempts; resume it with the same request or use another session',
      ),
      '“Session” s1: run r1 is unfinished with a different “Maximum attempts”; resume it with the same request or use another session.',
    );
    assert.equal(
      runFindingInUiWords('--run-root /x: must be a relative path inside the repository'),
      '--run-root /x: must be a relative path inside the repository.',
      'a flag Run Loop never asks about keeps its name',
    );
  });
});
