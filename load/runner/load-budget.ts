// The load stage's budget unless given (--budget load=DURATION): twice the
// time the profile's phases may take (their budgets and its sustained
// duration), plus ten minutes to seed, preflight and audit. A target slow
// enough to spend it ran nothing worth judging: the engine is stopped and
// the run could not judge, naming the phases it had not finished.
import type { ResolvedProfile } from './scale-contract.ts';

const SETUP_AND_AUDIT_MS = 10 * 60_000;

export function loadBudgetMs(profile: Pick<ResolvedProfile, 'phases' | 'duration_s'>): number {
  const phasesS = profile.phases.reduce((n, p) => n + (p.budget_s ?? 0), 0) + (profile.duration_s ?? 0);
  return 2 * phasesS * 1000 + SETUP_AND_AUDIT_MS;
}
