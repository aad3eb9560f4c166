// Load runs against registries that make choices the contract allows and the
// reference does not: each must pass. A resolve may meet REPLICA_UNAVAILABLE
// from contention and succeed when sent again ([route-contention]); a
// registry's clock may lag this machine's by as much as preflight allows for
// leases, and the leases the flows lapse must still lie in its past. The
// routing phases run without the retry storm between them, so the noisy
// tenant must lift its own tenant limit for the phase after it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ResolveRequest, RouteView } from '../../contract/records.ts';
import { replicaUnavailable } from '../../contract/registry-error.ts';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import { runSmoke, startTarget } from './in-process-target.ts';

/** The reference, but the first attempt of every third new action is refused as contended, changing nothing. */
class ContendedStore extends MemoryStore {
  #seen = 0;
  readonly #refused = new Set<string>();

  override async resolve(tenantId: string, request: ResolveRequest): Promise<RouteView> {
    const fresh = (await this.route(tenantId, request.action_id)) === null;
    if (fresh && !this.#refused.has(request.action_id) && this.#seen++ % 3 === 0) {
      this.#refused.add(request.action_id);
      throw replicaUnavailable('contended');
    }
    return super.resolve(tenantId, request);
  }

  get refusals(): number {
    return this.#refused.size;
  }
}

test('resolves refused for contention and sent again pass the routing phases', async (t) => {
  const store = new ContendedStore();
  const target = await startTarget(store);
  t.after(() => target.close());
  const outcome = await runSmoke(target, { phases: ['concurrent_routes', 'noisy_tenant'] });
  assert.ok(store.refusals > 0, 'no resolve was refused');
  assert.equal(outcome.report!.verdict, 'pass', outcome.report!.reasons.join('\n'));
  assert.equal(outcome.exitCode, 0);
});

test('a registry whose clock lags by 10 s takes the lapsed leases offline, and the run passes', async (t) => {
  const target = await startTarget(new MemoryStore({ clock: () => Date.now() - 10_000 }));
  t.after(() => target.close());
  const outcome = await runSmoke(target, { phases: ['lease_churn'] });
  assert.equal(outcome.report!.verdict, 'pass', outcome.report!.reasons.join('\n'));
  assert.equal(outcome.report!.audit!.invariants.find((i) => i.id === 'offline_as_expected')!.ok, true);
});
