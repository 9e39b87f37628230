// Reading the `--engineering` contract for `open`: unreadable → exit 2, not a loop-engineering
// contract → exit 1, any strict finding → exit 1 (NEEDS_INPUT).
import { admitEngineering } from '../../engine/engineering/admit';
import { isEngineeringMarkdownName } from '../../engine/engineering/check';
import type { EngineeringState } from '../../engine/engineering/state';
import { EXIT, isRefusal } from '../../engine/refusal';
import { checkEngineeringText } from './validate';
import { Refused } from '../outcome';
import { CONTRACT_LIMIT, readTextFile } from '../read-input';

export function readEngineeringContract(path: string): EngineeringState {
  const read = readTextFile(path, CONTRACT_LIMIT, { keepByteOrderMark: isEngineeringMarkdownName(path) });
  if ('error' in read) throw new Refused(EXIT.usage, [`${path}: engineering contract file ${read.error}`]);
  const check = checkEngineeringText(read.text, path, true);
  if (check === null) {
    throw new Refused(EXIT.malformed, [
      `${path}: not a loop-engineering contract (a *.loop.md file, or JSON with "kind": "loop-engineering")`,
    ]);
  }
  const admitted = admitEngineering(path, check);
  if (isRefusal(admitted)) throw new Refused(admitted.exitCode, admitted.findings);
  return admitted;
}
