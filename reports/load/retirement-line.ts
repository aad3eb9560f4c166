// The one sentence both load report formats give the retirement of a run's
// records; plain text, which each format escapes as it needs.
import type { Retirement } from '../../load/runner/retire.ts';

export function retirementLine(r: Retirement): string {
  const done = `Retired afterwards: ${r.types_disabled} connector types disabled, ${r.replicas_offline} replicas taken offline, ${r.rejected} refused.`;
  return r.error ? `${done} Retirement stopped early (${r.error}); the audit above is unaffected.` : done;
}
