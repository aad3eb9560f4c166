// Every replica id of a run: the seeded ones (load/lib/dataset.js numbering)
// and the ones the run created (journal).
import type { Journal } from './journal.ts';
import type { RunPlan } from './run-plan.ts';

export function replicaIdsOfRun(plan: RunPlan, journal: Journal): string[] {
  const ids: string[] = [];
  for (let i = 1; i <= plan.profile.dataset.instances; i++) ids.push(`crepl_${plan.run_id}_${String(i).padStart(8, '0')}`);
  for (const id of journal.created) ids.push(id);
  return ids;
}
