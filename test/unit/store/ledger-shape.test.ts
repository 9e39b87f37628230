// The read-side checks in isolation: duplicate keys anywhere, the proof that record text may be
// reused, and the shape validator's messages (issue 9, items 2 and 3).
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { IterationRecord, Ledger } from '../../../src/engine/types';
import { parseLedgerText, serializeLedger } from '../../../src/store/ledger-file';
import { ledgerShapeProblem } from '../../../src/store/ledger-shape';
import { sampleLedger, sampleRecord } from './fixtures/sample-ledger';

function corrupt(text: string, session?: string): string {
  const read = parseLedgerText(text, session);
  assert.equal(read.kind, 'corrupt', JSON.stringify(read).slice(0, 300));
  return read.kind === 'corrupt' ? read.reason : '';
}

function ok(text: string, session?: string): Extract<ReturnType<typeof parseLedgerText>, { kind: 'ok' }> {
  const read = parseLedgerText(text, session);
  assert.equal(read.kind, 'ok', JSON.stringify(read).slice(0, 300));
  if (read.kind !== 'ok') throw new Error('unreachable');
  return read;
}

describe('store: duplicate keys', () => {
  const text = serializeLedger(sampleLedger('s1', 3));

  it('names a duplicate top-level key, whichever copy comes first', () => {
    assert.match(
      corrupt(text.replace('{\n', '{\n  "iterations": [],\n')),
      /has the key "iterations" twice at the top level/,
    );
    assert.match(
      corrupt(text.replace(/\n}\n$/, ',\n  "status": "closed"\n}\n')),
      /"status" twice at the top level/,
    );
  });

  it('names a duplicate key inside a record, the contract, a rubric entry or a map, with its path', () => {
    const first = '{"actions":["action-1"]';
    assert.match(
      corrupt(text.replace(first, `{"note":"x",${first.slice(1)}`)),
      /"note" twice in iterations\[0\]/,
    );
    assert.match(
      corrupt(text.replace('"baseline":{"coverage":51}', '"baseline":{"coverage":51,"coverage":1}')),
      /"coverage" twice in iterations\[0\]\.baseline/,
    );
    assert.match(
      corrupt(text.replace('"owner": "me"', '"owner": "me",\n    "owner": "you"')),
      /"owner" twice in contract/,
    );
    assert.match(corrupt('{"a":1,"a\\u0020":2,"a":3}'), /"a" twice at the top level/);
    assert.match(corrupt('{"__proto__":1,"__proto__":2}'), /"__proto__" twice/);
  });

  it('does not mistake a colon opening a string value for a key', () => {
    const tricky = text
      .replace('"note":"iteration 1', '"note":": iteration 1')
      // Escaped quotes and backslashes before colons inside a string value.
      .replace('"note":"iteration 2', '"note":" \\": x\\\\\\": yiteration 2');
    const read = ok(tricky, 's1');
    assert.equal(read.ledger.iterations[0]?.note?.slice(0, 3), ': i');
  });

  it('property: any object tree with a repeated key is corrupt; without one it is not', () => {
    const key = fc.constantFrom('a', 'b', 'c', '"q"', 'd\\', ':', ' :');
    const leaf = fc.oneof(fc.integer(), fc.constantFrom(null, true, ':', '":', '\\"'), fc.string());
    const tree = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        leaf,
        fc.array(tie('node'), { maxLength: 3 }),
        fc.array(fc.tuple(key, tie('node')), { maxLength: 4 }).map((pairs) => ({ pairs })),
      ),
    })).node;
    type Tree = unknown;
    const render = (node: Tree): string => {
      if (Array.isArray(node)) return `[${node.map(render).join(', ')}]`;
      if (node !== null && typeof node === 'object' && 'pairs' in node) {
        const pairs = (node as { pairs: [string, Tree][] }).pairs;
        return `{${pairs.map(([k, v]) => `${JSON.stringify(k)} : ${render(v)}`).join(',')}}`;
      }
      return JSON.stringify(node);
    };
    const repeats = (node: Tree): boolean => {
      if (Array.isArray(node)) return node.some(repeats);
      if (node !== null && typeof node === 'object' && 'pairs' in node) {
        const pairs = (node as { pairs: [string, Tree][] }).pairs;
        const keys = pairs.map(([k]) => k);
        return new Set(keys).size !== keys.length || pairs.some(([, v]) => repeats(v));
      }
      return false;
    };
    fc.assert(
      fc.property(fc.array(fc.tuple(key, tree), { maxLength: 5 }), (pairs) => {
        const root = { pairs };
        const read = parseLedgerText(render(root));
        const duplicate = read.kind === 'corrupt' && /twice/.test(read.reason);
        assert.equal(duplicate, repeats(root), render(root));
      }),
      { numRuns: 300 },
    );
  });
});

describe('store: reusing record text', () => {
  const ledger = sampleLedger('s1', 4);
  const text = serializeLedger(ledger);

  it("finds the records of the writer's own layout", () => {
    const read = ok(text, 's1');
    assert.ok(read.records);
    const span = text.slice(read.records.start, read.records.end);
    assert.equal(span.split('\n').length, 4);
    assert.deepEqual(JSON.parse(`[${span}]`), read.ledger.iterations);
  });

  it('does not trust a look-alike "iterations" list nested in another value', () => {
    // A hand edit that puts a two-space-indented "iterations" list inside the contract, before
    // the real one: the layout markers match there first.
    const fake = text.replace(
      '  "contract": {',
      '  "contract": {\n  "iterations": [\n    {"n": 1, "outcome": "stop"}\n  ],',
    );
    const read = ok(fake, 's1');
    if (read.records !== null) {
      assert.deepEqual(
        JSON.parse(`[${fake.slice(read.records.start, read.records.end)}]`),
        read.ledger.iterations,
      );
    }
  });

  it('property: however the records are laid out, an append writes exactly the records read plus the new one', () => {
    const layouts = fc.array(fc.constantFrom('line', 'indented', 'split', 'joined', 'spaced'), {
      minLength: 1,
      maxLength: 6,
    });
    fc.assert(
      fc.property(layouts, fc.boolean(), (kinds, nestedDecoy) => {
        const records = kinds.map((_, i) => ({ ...sampleRecord(i + 1), note: i % 2 ? ':x\n  ]' : 'n' }));
        const l: Ledger = { ...sampleLedger('s1', 0), iterations: records };
        let body = '';
        kinds.forEach((kind, i) => {
          const one = JSON.stringify(records[i]);
          const piece =
            kind === 'indented'
              ? JSON.stringify(records[i], null, 2)
              : kind === 'split'
                ? one.replace('"]', '"\n  ]') // the actions list closes on a line starting "  ]"
                : kind === 'spaced'
                  ? one.replace(/,"/g, ', "')
                  : one;
          body += i === 0 ? `\n    ${piece}` : kind === 'joined' ? `, ${piece}` : `,\n    ${piece}`;
        });
        let fileText = serializeLedger(l).replace(
          /"iterations": \[[\s\S]*?\n {2}\]/,
          () => `"iterations": [${body}\n  ]`,
        );
        if (nestedDecoy)
          fileText = fileText.replace(
            '  "contract": {',
            '  "contract": {\n  "iterations": [\n    {"n": 9}\n  ],',
          );
        const read = ok(fileText, 's1');
        assert.deepEqual(read.ledger.iterations, records);
        const next = {
          ...read.ledger,
          iterations: [...read.ledger.iterations, sampleRecord(records.length + 1)],
        };
        const written = serializeLedger(next, {
          text: fileText,
          iterations: read.ledger.iterations,
          records: read.records,
        });
        const reread = ok(written, 's1');
        assert.deepEqual(reread.ledger.iterations, [
          ...records,
          sampleRecord(records.length + 1),
        ] as IterationRecord[]);
        // The writer's layout: one record per line.
        assert.equal(
          written.split('\n').filter((line) => line.startsWith('    {"actions"')).length,
          records.length + 1,
        );
      }),
      { numRuns: 200 },
    );
  });
});

describe('store: ledger shape', () => {
  const valid = (): Record<string, unknown> => JSON.parse(JSON.stringify(sampleLedger('s1', 2)));

  it("accepts the engine's ledger, an original-format one without the optional keys, and unknown keys", () => {
    assert.equal(ledgerShapeProblem(valid(), 's1'), null);
    const original = valid();
    for (const key of ['epoch', 'epochs', 'opened_at', 'resumed', 'stall_threshold', 'final_outcome'])
      delete original[key];
    for (const record of original.iterations as Record<string, unknown>[]) {
      delete record.epoch;
      delete record.timestamp;
    }
    assert.equal(ledgerShapeProblem(original, 's1'), null);
    const extended: Record<string, unknown> = { ...valid(), repeat: { x: 1 }, engineering: null };
    (extended.iterations as Record<string, unknown>[])[0]!.no_op = 'anything';
    assert.equal(ledgerShapeProblem(extended, 's1'), null);
  });

  it('names the first bad field by its JSON path, without quoting string values', () => {
    const l = valid();
    (l.iterations as Record<string, unknown>[])[1]!.note = ['secret text'];
    assert.equal(
      ledgerShapeProblem(l),
      'is invalid at iterations[1].note: expected a string or null, found a list',
    );
    const m = valid();
    (m.contract as Record<string, unknown>).iteration_limit = 'secret';
    assert.equal(
      ledgerShapeProblem(m),
      'is invalid at contract.iteration_limit: expected a whole number ≥ 1, found a string',
    );
    assert.match(ledgerShapeProblem(valid(), 'other') ?? '', /at session: .*"other\.json"/);
  });

  it('reads a ledger nested too deeply as corrupt, not as a crash', () => {
    const deep = `{"session":"s1","x":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    assert.match(corrupt(deep), /nested too deeply/);
  });
});
