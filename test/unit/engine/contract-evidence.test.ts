import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkEvidenceCommand, findPlaceholders, hasPlaceholder } from '../../../src/engine/contract';

const KNOWN = new Set([
  'bash',
  'ls',
  'wc',
  'awk',
  'grep',
  'npm',
  'python3',
  'echo',
  'jq',
  'scripts/count.sh',
]);
const resolve = (word: string) => KNOWN.has(word);
const codes = (command: string, resolver = resolve) =>
  checkEvidenceCommand(command, resolver).map((f) => f.code);

describe('contract: placeholder detection', () => {
  it('finds a long flag followed by a bare one- or two-letter capital token', () => {
    assert.deepEqual(findPlaceholders('tool --root R --json'), ['--root R']);
    assert.deepEqual(findPlaceholders('tool --session AB'), ['--session AB']);
    assert.deepEqual(findPlaceholders("python3 -c \"run('--root','R')\""), ["--root','R"]);
    assert.deepEqual(findPlaceholders('tool --root "R"'), ['--root "R']);
    assert.deepEqual(findPlaceholders('tool --root,  R,'), ['--root,  R']);
    assert.deepEqual(findPlaceholders('tool --out-dir\tX'), ['--out-dir\tX']);
  });

  it('finds angle-bracket tokens and the TBD / FIXME / XXX markers', () => {
    assert.deepEqual(findPlaceholders('loop status --session <session-id>'), ['<session-id>']);
    assert.deepEqual(findPlaceholders('cat <path to/file.txt>'), ['<path to/file.txt>']);
    assert.deepEqual(findPlaceholders('echo TBD'), ['TBD']);
    assert.deepEqual(findPlaceholders('grep FIXME src; echo XXX'), ['FIXME', 'XXX']);
  });

  it('leaves real commands alone', () => {
    for (const command of [
      'tool --format JSON',
      'tool --component always-on',
      'tool --root R1',
      'tool --root=R',
      'tool --Root R',
      'tool -r R',
      'ls src/**/*.ts | wc -l',
      "awk '{print $1}' data.txt",
      'echo "$HOME" ${PATH}',
      'echo XXXL TBDs FIXMEs _TBD',
      'grep -c "a < b" file',
      'cmd 2>&1 >/dev/null',
      'cmd <9x>',
      'bash scripts/check.sh',
    ]) {
      assert.deepEqual(findPlaceholders(command), [], command);
      assert.equal(hasPlaceholder(command), false, command);
    }
  });

  const flagName = fc.stringMatching(/^[a-z][a-z0-9_-]{0,12}$/);
  const capitals = fc.stringMatching(/^[A-Z]{1,2}$/);

  it('property: any --flag followed by 1–2 capitals is a placeholder, bare, quoted or comma-joined', () => {
    fc.assert(
      fc.property(flagName, capitals, fc.constantFrom(' ', '  ', '\t'), (flag, value, gap) => {
        const forms = [
          `tool --${flag}${gap}${value}`,
          `tool --${flag}${gap}${value} --next`,
          `tool '--${flag}${gap}${value}'`,
          `tool "--${flag}${gap}${value}"`,
          `tool --${flag} '${value}'`,
          `tool --${flag} "${value}"`,
          `python3 -c "f('--${flag}','${value}')"`,
          `python3 -c 'f("--${flag}", "${value}")'`,
          `tool --${flag},${value}`,
        ];
        for (const form of forms) assert.ok(hasPlaceholder(form), form);
      }),
    );
  });

  it('property: three or more capitals, or mixed case, after a flag is not a placeholder', () => {
    const long = fc.stringMatching(/^[A-Z]{3,8}$/);
    const mixed = fc.stringMatching(/^[A-Z][a-z][A-Za-z]{0,5}$|^[a-z][A-Z]{1,2}$/);
    fc.assert(
      fc.property(flagName, fc.oneof(long, mixed), (flag, value) => {
        const forms = [`tool --${flag} ${value}`, `tool --${flag} '${value}'`, `f('--${flag}','${value}')`];
        for (const form of forms) assert.deepEqual(findPlaceholders(form), [], form);
      }),
    );
  });

  it('property: $VAR, ${…}, {…} and glob text is never a placeholder', () => {
    // A marker word is a placeholder even after `$` (`$TBD`), as in the original; leave those out.
    const ident = fc
      .stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,10}$/)
      .filter((v) => !['TBD', 'FIXME', 'XXX'].includes(v));
    const piece = fc.oneof(
      ident.map((v) => `$${v}`),
      ident.map((v) => `\${${v}}`),
      ident.map((v) => `{${v}}`),
      fc.stringMatching(/^[a-z][a-z0-9_./]{0,10}$/).map((p) => `${p}/**/*.ts`),
      fc.stringMatching(/^[a-z]{1,6}$/).map((p) => `${p}?[a-z]*`),
      fc.constantFrom("'{print $1}'", '"$@"', '{a,b}'),
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 6 }), (pieces) => {
        const command = `cmd ${pieces.join(' ')}`;
        assert.deepEqual(findPlaceholders(command), [], command);
      }),
    );
  });
});

describe('contract: evidence command static checks', () => {
  it("passes the examples in the original work loop's documentation", () => {
    assert.deepEqual(
      codes('tool --format JSON', (w) => w === 'tool'),
      [],
    );
    assert.deepEqual(codes('ls src | wc -l'), []);
    assert.deepEqual(codes('bash scripts/run-tests.sh'), []);
    assert.deepEqual(codes("awk '{print $1}' data.txt"), []);
    assert.deepEqual(codes('LC_ALL=C bash script.sh'), []);
  });

  it('skips leading NAME=value words but checks the program after them', () => {
    const seen: string[] = [];
    const spy = (w: string) => {
      seen.push(w);
      return w === 'bash';
    };
    assert.deepEqual(codes('LC_ALL=C FOO_1=x bash script.sh', spy), []);
    assert.deepEqual(seen, ['bash']);
    assert.deepEqual(codes('LC_ALL=C nosuchtool x'), ['program-not-found']);
    assert.deepEqual(codes('A=1 B=2'), [], 'a segment of assignments only names no program');
    assert.deepEqual(codes('1A=x bash'), ['program-not-found'], 'not a valid name, so it is the program');
  });

  it('LC_ALL=C bash script.sh fails only when bash does not resolve', () => {
    assert.deepEqual(
      codes('LC_ALL=C bash script.sh', () => false),
      ['program-not-found'],
    );
  });

  it('checks the program of every segment, split on || && | ;', () => {
    const seen: string[] = [];
    const spy = (w: string) => {
      seen.push(w);
      return true;
    };
    checkEvidenceCommand('a 1 || b 2 && c 3 | d 4 ; e 5', spy);
    assert.deepEqual(seen, ['a', 'b', 'c', 'd', 'e']);
    const findings = checkEvidenceCommand('ls | nope1 && wc ; nope2', resolve);
    assert.deepEqual(
      findings.map((f) => f.code),
      ['program-not-found', 'program-not-found'],
    );
    assert.match(findings[0]!.message, /^evidence_command: .*"nope1"/);
    assert.match(findings[1]!.message, /"nope2"/);
    assert.deepEqual(findings[0]!.path, ['evidence_command']);
  });

  it('never checks arguments', () => {
    assert.deepEqual(codes('bash does/not/exist.sh --flag value'), []);
  });

  it('splits even inside quotes, so a quoted pipe is a segment break', () => {
    const seen: string[] = [];
    checkEvidenceCommand("grep 'a|b' file", (w) => {
      seen.push(w);
      return true;
    });
    // "grep 'a" has an unbalanced quote once split: the scan stops there.
    assert.deepEqual(codes("grep 'a|b' file"), ['unparsable-command']);
    assert.deepEqual(seen, []);
    assert.deepEqual(codes('grep "a;b" x'), ['unparsable-command']);
  });

  it('refuses an unbalanced quote and stops the scan', () => {
    const seen: string[] = [];
    const findings = checkEvidenceCommand("ls x | echo 'oops | nope", (w) => {
      seen.push(w);
      return false;
    });
    assert.deepEqual(
      findings.map((f) => f.code),
      ['program-not-found', 'unparsable-command'],
    );
    assert.deepEqual(seen, ['ls']);
    assert.match(findings[1]!.message, /cannot be parsed as a shell command/);
  });

  it('skips blank segments', () => {
    assert.deepEqual(codes('ls ;; ls ; '), []);
    assert.deepEqual(codes('| ls'), []);
  });

  it('tokenises with POSIX rules (quotes and escapes removed before resolving)', () => {
    const seen: string[] = [];
    checkEvidenceCommand(`"scripts/count.sh" a ; 'e'"cho" b ; ec\\ho c`, (w) => {
      seen.push(w);
      return true;
    });
    assert.deepEqual(seen, ['scripts/count.sh', 'echo', 'echo']);
  });

  it('reports a placeholder once, listing what it found, before program findings', () => {
    const findings = checkEvidenceCommand('nope --root R <id>', resolve);
    assert.deepEqual(
      findings.map((f) => f.code),
      ['placeholder', 'program-not-found'],
    );
    assert.match(findings[0]!.message, /"--root R", "<id>"/);
  });
});
