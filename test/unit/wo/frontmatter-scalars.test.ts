// The one-pass scalar reader (reconcile's hot path) against the plain reading it replaced: split
// on '\n', the region between a leading `---` line and the next, the first `key:` line per key.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { frontmatterScalars } from '../../../src/engine/workorders/frontmatter';

function reference(text: string, key: string): string {
  const lines = text.split('\n');
  if (!/^---\s*$/.test(lines[0] ?? '')) return '';
  for (let i = 1; i < lines.length && !/^---\s*$/.test(lines[i] ?? ''); i += 1) {
    const line = lines[i] ?? '';
    if (!line.startsWith(`${key}:`)) continue;
    let value = line.slice(key.length + 1).trim();
    if (value.startsWith('"')) value = value.slice(1);
    if (value.endsWith('"')) value = value.slice(0, -1);
    if (value.startsWith("'")) value = value.slice(1);
    if (value.endsWith("'")) value = value.slice(0, -1);
    return value;
  }
  return '';
}

describe('frontmatterScalars (one pass) reads as the line-wise reader', () => {
  it('agrees on generated files: fences with CRs and spaces, quotes, duplicates, keys in the body', () => {
    const piece = fc.constantFrom(
      '---',
      '--- \r',
      'id: wo-01',
      'id: "wo-02"',
      "status: 'ready'\r",
      'status:done',
      'status: in_progress',
      'idx: nope',
      ' id: indented',
      '',
      'body text',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.boolean(), (lines, trailing) => {
        const text = lines.join('\n') + (trailing ? '\n' : '');
        assert.deepEqual(frontmatterScalars(text, ['id', 'status']), [
          reference(text, 'id'),
          reference(text, 'status'),
        ]);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a plain work order', () => {
    assert.deepEqual(
      frontmatterScalars('---\nid: local:t#wo-03\nstatus: done\n---\nstatus: body\n', ['status', 'id']),
      ['done', 'local:t#wo-03'],
    );
  });
});
