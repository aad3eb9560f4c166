// The suite must not fail a correct registry that behaves in ways the
// reference happens not to. Each registry here is the reference with one
// legal behaviour changed in front of its memory store, and a run of the
// cases that guard the clause, through the same API the CLI uses, must pass:
// the deliberate defects beside the same behaviours (reference/defects/)
// show the same cases failing once the behaviour breaks the clause.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CapabilityBinding, ResolveRequest } from '../../contract/records.ts';
import type { RegistryPort } from '../../contract/target-port.ts';
import { replicaUnavailable } from '../../contract/registry-error.ts';
import { takesNextLeaseFirst } from '../../reference/defects/support/lease-order.ts';
import { decorate } from '../../reference/defects/support/decorate.ts';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import type { RegistryStore } from '../../reference/store/registry-store.ts';
import { runConformance, type ConformOutcome } from '../runner/run.ts';
import { startReferenceTarget } from './reference-target.ts';

/** The reference memory store with some of its methods replaced; `inner` is the untouched store. */
function withBehaviour(build: (inner: MemoryStore) => Partial<RegistryPort>): RegistryStore {
  const inner = new MemoryStore();
  return decorate(inner, build(inner));
}

async function runAgainst(store: RegistryStore, cases: string[]): Promise<ConformOutcome> {
  const target = await startReferenceTarget({ store, silent: true });
  try {
    return await runConformance({ config: target.config({ cases, categories: [] }), signingKey: target.key, writeReports: false });
  } finally {
    await target.close();
  }
}

function statuses(outcome: ConformOutcome): Record<string, string> {
  assert.ok(outcome.result, outcome.error);
  return Object.fromEntries(outcome.result.cases.map((c) => [c.id, c.status === 'pass' ? 'pass' : `${c.status}: ${c.message}`]));
}

describe('conformance passes correct registries that behave unlike the reference', () => {
  const BURSTS = [
    'admission/concurrent-resolves-never-exceed-scope-limits',
    'admission/noisy-tenant-gets-exactly-its-limit',
    'admission/concurrent-resolves-never-exceed-replica-capacity',
    'pinned/retry-budget-admits-exactly-n-retries',
    'routing/contention-is-bounded-and-never-overbooks',
  ];

  it('a correct registry that refuses contended resolves with REPLICA_UNAVAILABLE passes every burst case', async () => {
    // Resolves wait a moment, so a burst overlaps; every other one that starts while another of
    // the same tenant (so on the same replicas) is in flight is refused as contention, as
    // [route-contention] allows, and an action at most once.
    const instanceOf = new Map<string, string>();
    const refusedOnce = new Set<string>();
    const inFlight = new Map<string, number>();
    let overlapping = 0;
    const store = withBehaviour((inner) => ({
      async putBinding(record: CapabilityBinding) {
        const key = `${record.tenant_id}\u001f${record.capability_id}`;
        if (!instanceOf.has(key)) instanceOf.set(key, record.instance_id);
        return inner.putBinding(record);
      },
      async resolve(tenantId: string, request: ResolveRequest) {
        inFlight.set(tenantId, (inFlight.get(tenantId) ?? 0) + 1);
        try {
          const contended = inFlight.get(tenantId)! > 1 && ++overlapping % 2 === 0 && !refusedOnce.has(request.action_id);
          await new Promise((resolve) => setTimeout(resolve, 2));
          if (contended) {
            refusedOnce.add(request.action_id);
            const pinned = await inner.route(tenantId, request.action_id);
            throw replicaUnavailable(pinned?.assignment.instance_id ?? instanceOf.get(`${tenantId}\u001f${request.capability_id}`)!);
          }
          return await inner.resolve(tenantId, request);
        } finally {
          inFlight.set(tenantId, inFlight.get(tenantId)! - 1);
        }
      },
    }));
    const cases = [...BURSTS, 'routing/fence-tokens-are-unique'];
    const outcome = await runAgainst(store, cases);
    assert.deepEqual(statuses(outcome), Object.fromEntries(cases.map((id) => [id, 'pass'])));
    assert.ok(refusedOnce.size > 0, 'the registry refused some resolves as contended');
  });
});

describe('lease maintenance that skips replicas a concurrent call holds ([lease-expiry-bounded])', () => {
  const LEASE_CASES = ['leases/expiry-changes-at-most-limit-in-lease-order', 'leases/expired-replica-goes-offline-and-releases'];
  /**
   * Every other maintenance call finds the stale replicas held by a concurrent call and skips them:
   * it returns 0, and the concurrent call takes them offline 20 ms later, when it commits.
   */
  const skipsHeld = withBehaviour((inner) => {
    let calls = 0;
    return {
      async expireLeases(limit: number) {
        if (calls++ % 2 === 1) return inner.expireLeases(limit);
        setTimeout(() => void inner.expireLeases(limit), 20);
        return { expired: 0 };
      },
    };
  });

  it('a correct registry that skips held replicas passes', async () => {
    // Takes the earliest lease a moment after the next one, as a concurrent call that held it would commit it.
    for (const store of [skipsHeld, withBehaviour((inner) => takesNextLeaseFirst(inner, 20))]) {
      const outcome = await runAgainst(store, LEASE_CASES);
      assert.deepEqual(statuses(outcome), Object.fromEntries(LEASE_CASES.map((id) => [id, 'pass'])));
    }
  });
});
