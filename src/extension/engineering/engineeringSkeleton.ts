// A new `.loop.md` contract: every required field written with an empty value, so the editor's
// diagnostics list each one still to fill in (and the "insert from template" fix can fill them).
import { displayName, REQUIRED_FIELDS } from '../../engine/engineering/fields';

export function engineeringSkeleton(name: string, eol = '\n'): string {
  return [
    `# ${name}`,
    '',
    ...REQUIRED_FIELDS.map((field) => `${displayName(field)}: `),
    '',
    '<!-- Optional, to allow a NO_OP iteration: "No-op: <eligibility query>" and "No-op output limit: 0" -->',
    '',
  ].join(eol);
}
