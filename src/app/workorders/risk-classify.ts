// `wo risk-classify`'s operation: the changed-file list and the work order's own floor and
// collapsed-cycle flag (when the caller gave none) through the risk rules. An unreadable input
// is not an error: the engine classifies what it cannot determine as `high`.
import { readFrontmatter } from '../../engine/workorders/frontmatter-yaml';
import { classifyRisk } from '../../engine/workorders/risk';
import { readText } from '../../drivers/workorders/files';
import { riskRules } from '../../drivers/workorders/risk-rules';

export interface RiskRequest {
  woFile?: string;
  /** The file listing the changed paths, one a line; empty = none given. */
  filesFrom: string;
  /** Comma-separated gate floor; empty = the work order's `gate_floor`. */
  gateFloor: string;
  /** 'true' / 'false'; empty = the work order's `collapsed_scc`. */
  collapsedScc: string;
}

export function classifyWorkOrderRisk(request: RiskRequest): ReturnType<typeof classifyRisk> {
  let { gateFloor, collapsedScc: collapsed } = request;
  if (request.woFile) {
    const text = readText(request.woFile);
    const fm = text === undefined ? undefined : readFrontmatter(text);
    if (fm?.ok) {
      const floor = fm.data.gate_floor;
      if (gateFloor === '' && Array.isArray(floor)) gateFloor = floor.map(String).join(',');
      if (collapsed === '') collapsed = String(fm.data.collapsed_scc === true);
    }
  }
  const list = request.filesFrom === '' ? undefined : readText(request.filesFrom);
  return classifyRisk(
    {
      files: list === undefined ? undefined : list.split('\n'),
      gateFloor,
      collapsedScc: collapsed === 'true',
    },
    riskRules(),
  );
}
