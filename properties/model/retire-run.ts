// What a run leaves behind on a shared registry, undone as DESIGN.md asks:
// every reservation it holds is settled (cancelled, which leaves circuits
// alone) and every replica goes offline, so the next run's counters, lease
// expiry and routing see none of it. Best effort: a failure here must not
// hide the run's own verdict.
import type { RunContext } from '../targets/target.ts';
import type { RegistryModel } from './registry-model.ts';

export async function retireRun(m: RegistryModel, run: RunContext): Promise<void> {
  const settle = Object.values(m.s.routes).map((r) => run.store.settle(r.assignment.tenant_id, r.assignment.action_id, r.assignment, 'cancelled'));
  await Promise.allSettled(settle);
  const offline = Object.values(m.s.replicas).map((r) =>
    run.store.reportHealth(r.provision.id, { ...r.health, status: 'offline', health_revision: r.health.health_revision + 1 }),
  );
  await Promise.allSettled(offline);
}
