// After the load: the audit of the target's state, then the retirement of
// the run's records (unless they are kept). A single run does this itself;
// a distributed run does it once, when its parts are merged, since until
// every part has finished some of them may still hold routes.
import { auditRun, type AuditResult } from './audit.ts';
import type { Journal } from './journal.ts';
import { settleAbandoned } from './settle-abandoned.ts';
import { retireRun, type Retirement } from './retire.ts';
import type { RunPlan } from './run-plan.ts';
import { replicaIdsOfRun } from './run-replicas.ts';

export interface AfterLoad {
  audit: AuditResult | null;
  /** Why the audit could not finish reading the target. */
  error: string | null;
  retirement: Retirement | null;
}

export async function auditAndRetire(plan: RunPlan, journal: Journal, keepData: boolean): Promise<AfterLoad> {
  let audited: Awaited<ReturnType<typeof auditRun>>;
  try {
    const { unsettled, observations } = await settleAbandoned(plan, journal);
    // What the abandoned routes held at once is a sighting like the flows' own: the audit judges it never over capacity.
    const seen: Journal = { ...journal, replicaObservations: [...journal.replicaObservations, ...observations] };
    audited = await auditRun({ plan, journal: seen, replicaIds: replicaIdsOfRun(plan, journal), unsettled });
  } catch (err) {
    return { audit: null, error: (err as Error).message, retirement: null };
  }
  // Retire only after the audit has read the state it checks. Retirement judges nothing, so however it
  // ends, the audit stands; a retirement that stops says so in its own result.
  if (keepData) return { audit: audited.result, error: null, retirement: null };
  const retirement = await retireRun(plan, audited.replicas).catch((err: Error) => ({
    types_disabled: 0,
    replicas_offline: 0,
    rejected: 0,
    error: `retirement failed: ${err.message}`,
  }));
  return { audit: audited.result, error: null, retirement };
}
