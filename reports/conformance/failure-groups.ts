// Failures grouped by cause: the same status of the same operation with the
// same error code, broken clause and case status. A registry with one defect
// that 185 cases run into reads as one group of 185, its first instance open
// and the rest listed, not as 185 expanded blocks.
import type { Exchange } from '../../conformance/harness/exchange.ts';
import type { CaseResult } from '../../conformance/runner/result.ts';
import { operations } from '../../contract/openapi.ts';

let templates: Array<{ method: string; pattern: RegExp; id: string }> | undefined;

/** The openapi.yaml operation a request addressed, or its method and path when none matches. */
export function operationOf(e: Exchange): string {
  templates ??= operations().map((o) => ({
    method: o.method.toUpperCase(),
    pattern: new RegExp(`^${o.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[a-z_]+\}/g, '[^/]+')}$`),
    id: o.operation.operationId,
  }));
  const path = new URL(e.request.url).pathname;
  // A path outside the contract still groups: segments that carry a digit are taken for ids.
  return (
    templates.find((t) => t.method === e.request.method && t.pattern.test(path))?.id ??
    `${e.request.method} ${path.replace(/\/[^/]*[0-9][^/]*/g, '/{id}')}`
  );
}

function errorCode(e: Exchange): string {
  if (!e.response) return `no response: ${e.transport_error ?? 'unknown'}`;
  try {
    const code = (JSON.parse(e.response.body?.text ?? '') as { error?: { code?: unknown } }).error?.code;
    return `${e.response.status}${typeof code === 'string' ? ` ${code}` : ''}`;
  } catch {
    return String(e.response.status);
  }
}

export interface FailureGroup {
  /** One line naming the cause, e.g. `fail: settleAssignment → 200 (breaks settle-fence)`. */
  cause: string;
  cases: CaseResult[];
}

/** The cause a failed case is grouped under. */
export function causeOf(c: CaseResult): string {
  const clause = c.failure_clause ?? c.clause;
  if (!c.exchange) return `${c.status}: ${c.message ?? 'no message'} (breaks ${clause})`;
  return `${c.status}: ${operationOf(c.exchange)} → ${errorCode(c.exchange)} (breaks ${clause})`;
}

/** Groups in order of size, largest first; cases keep their run order inside a group. */
export function groupFailures(cases: readonly CaseResult[]): FailureGroup[] {
  const groups = new Map<string, CaseResult[]>();
  for (const c of cases) {
    if (c.status !== 'fail' && c.status !== 'error') continue;
    const cause = causeOf(c);
    groups.set(cause, [...(groups.get(cause) ?? []), c]);
  }
  return [...groups].map(([cause, members]) => ({ cause, cases: members })).sort((a, b) => b.cases.length - a.cases.length);
}
