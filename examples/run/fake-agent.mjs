// A stand-in agent for trying `loop-ledger run` without an LLM: one script for all three roles
// (LOOP_ROLE). The explorer lists the allowed globs, the coder writes one note inside the first
// allowed folder, the reviewer passes when every check passed. Reads the role JSON on stdin and
// prints one JSON object, as a real agent must.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const prompt = JSON.parse(readFileSync(0, 'utf8'));
const role = process.env.LOOP_ROLE;

/** The literal folder before the first glob character of a pattern (`src/**` → `src`). */
function folderOf(glob) {
  const literal = glob.split(/[*?[]/)[0];
  return literal.includes('/') ? literal.slice(0, literal.lastIndexOf('/')) : '';
}

if (role === 'explorer') {
  console.log(
    JSON.stringify({
      summary: `explore for: ${prompt.objective}`,
      target_files: prompt.allowed_globs,
      test_files: [],
    }),
  );
} else if (role === 'coder') {
  const file = join(process.env.LOOP_REPO ?? '.', folderOf(prompt.allowed_globs[0] ?? ''), 'loop-demo.md');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `# ${prompt.objective}\n\nAttempt ${prompt.attempt}.\n`);
  console.log(JSON.stringify({ summary: `wrote ${file}` }));
} else {
  const failing = prompt.check_results
    .filter((c) => c.returncode !== 0)
    .map((c) => `check failed: ${c.command}`);
  console.log(
    JSON.stringify({ verdict: failing.length === 0 ? 'PASS' : 'NEEDS_CHANGES', findings: failing }),
  );
}
