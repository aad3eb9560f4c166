// What a run leaves behind on a shared registry, undone as DESIGN.md asks:
// every reservation it holds is settled (cancelled, which leaves circuits
// alone) and every replica goes offline, so the next run's counters, lease
// expiry and routing see none of it. Best effort: a failure here must not
// hide the run's own verdict.
import type { RunContext } from '../targets/target.ts';
import type { RegistryModel } from './registry-model.ts';
import { untilAnswered } from './until-answered.ts';

export async function retireRun(m: RegistryModel, run: RunContext): Promise<void> {
  const settle = Object.values(m.s.routes).map((r) =>
    untilAnswered(run, () => run.store.settle(r.assignment.tenant_id, r.assignment.action_id, r.assignment, 'cancelled')),
  );
  await Promise.allSettled(settle);
  // The registry's own health revision: concurrent bursts report health the model never saw. Read again on every attempt.
  const offline = Object.keys(m.s.replicas).map((id) =>
    untilAnswered(run, async () => {
      const r = await run.store.getReplica(id);
      if (r && r.status !== 'offline') {
        await run.store.reportHealth(id, {
          status: 'offline',
          health_revision: r.health_revision + 1,
          lease_expires_at: r.lease_expires_at,
          capacity: Math.max(r.capacity, r.active_assignments),
        });
      }
    }),
  );
  await Promise.allSettled(offline);
}
