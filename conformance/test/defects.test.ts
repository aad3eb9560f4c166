// The suite must fail registries with defects the reference has no switch
// for (faults.test.ts covers those that it has), and must not fail a correct
// registry that behaves in ways the reference happens not to. Each registry
// here is the reference with one behaviour changed in front of its memory
// store (or of its token clock), and a run of the cases that guard against
// that behaviour, through the same API the CLI uses, must end as stated.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ScopeKind } from '../../contract/errors.ts';
import type {
  AdmissionPolicy,
  CapabilityBinding,
  CatalogContext,
  CatalogQuery,
  ConnectorReplica,
  ReplicaProvision,
  ResolveRequest,
  RouteView,
} from '../../contract/records.ts';
import { generateSigningKeys, signingKeyFromJwk, type SigningKey } from '../../contract/tokens.ts';
import { capacityExceeded, RegistryError, replicaUnavailable } from '../../contract/registry-error.ts';
import { createRegistryServer } from '../../reference/http/server.ts';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import type { RegistryStore } from '../../reference/store/registry-store.ts';
import { resolveConfig, type ConformConfig } from '../runner/config.ts';
import { runConformance, type ConformOutcome } from '../runner/run.ts';
import { startReferenceTarget } from './reference-target.ts';

/** The reference memory store with some of its methods replaced; `inner` is the untouched store. */
function withBehaviour(build: (inner: MemoryStore) => Partial<RegistryStore>): RegistryStore {
  const inner = new MemoryStore();
  const changed = build(inner) as Record<string | symbol, unknown>;
  return new Proxy(inner, {
    get(target, prop) {
      if (prop in changed) return changed[prop];
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as RegistryStore;
}

async function runCases(
  target: { config(o?: Partial<ConformConfig>): ConformConfig; key: SigningKey },
  cases: string[],
): Promise<ConformOutcome> {
  return runConformance({ config: target.config({ cases, categories: [] }), signingKey: target.key, writeReports: false });
}

async function runAgainst(store: RegistryStore, cases: string[]): Promise<ConformOutcome> {
  const target = await startReferenceTarget({ store, silent: true });
  try {
    return await runCases(target, cases);
  } finally {
    await target.close();
  }
}

function statuses(outcome: ConformOutcome): Record<string, string> {
  assert.ok(outcome.result, outcome.error);
  return Object.fromEntries(outcome.result.cases.map((c) => [c.id, c.status === 'pass' ? 'pass' : `${c.status}: ${c.message}`]));
}

/** Every case failed, citing `clause` (its own or the one it found broken), and the run is non-conformant. */
function assertFailed(outcome: ConformOutcome, cases: string[], clause: string): void {
  assert.equal(outcome.exitCode, 1, outcome.error);
  for (const id of cases) {
    const c = outcome.result!.cases.find((x) => x.id === id);
    assert.equal(c?.status, 'fail', `${id} should fail: ${JSON.stringify(statuses(outcome))}`);
    assert.ok(c.clause === clause || c.failure_clause === clause, `${id} fails [${c.failure_clause ?? c.clause}], not [${clause}]`);
  }
}

const POLICY_FIELD: Record<ScopeKind, keyof AdmissionPolicy> = {
  global: 'max_global_in_flight',
  tenant: 'max_tenant_in_flight',
  connector_type: 'max_connector_type_in_flight',
  instance: 'max_instance_in_flight',
  binding: 'max_binding_in_flight',
  tenant_retry: 'max_tenant_retry_in_flight',
};

/** A retry: the action has a route that holds no reservation. */
async function heldRoute(inner: MemoryStore, tenantId: string, actionId: string): Promise<RouteView | null> {
  const view = await inner.route(tenantId, actionId);
  return view && !view.reserved ? view : null;
}

describe('conformance fails registries with defects the reference has no switch for', () => {
  const TEXT_FILTER = ['catalog/text-filter-is-trimmed-literal-and-case-blind'];
  /** The text filter as SQL LIKE without escaping `wildcards`: `%` any run of characters, `_` any one. */
  const likeSearch = (wildcards: string) =>
    withBehaviour((inner) => ({
      async queryCatalog(query: CatalogQuery, ctx: CatalogContext) {
        const text = query.text?.trim() ?? '';
        if (![...wildcards].some((w) => text.includes(w))) return inner.queryCatalog(query, ctx);
        const page = await inner.queryCatalog({ ...query, text: undefined }, ctx);
        const pattern = [...text]
          .map((ch) =>
            ch === '%' && wildcards.includes('%')
              ? '.*'
              : ch === '_' && wildcards.includes('_')
                ? '.'
                : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
          )
          .join('');
        const like = new RegExp(pattern, 'i');
        const capabilities = page.capabilities.filter((d) =>
          like.test(`${d.capability.id} ${d.capability.name} ${d.capability.description}`),
        );
        return { ...page, capabilities, total: capabilities.length };
      },
    }));

  it('text search that takes _ as a wildcard: [catalog-filters]', async () => {
    assertFailed(await runAgainst(likeSearch('_'), TEXT_FILTER), TEXT_FILTER, 'catalog-filters');
  });

  it('text search that takes % as a wildcard: [catalog-filters]', async () => {
    assertFailed(await runAgainst(likeSearch('%'), TEXT_FILTER), TEXT_FILTER, 'catalog-filters');
  });

  const BURSTS = [
    'admission/concurrent-resolves-never-exceed-scope-limits',
    'admission/noisy-tenant-gets-exactly-its-limit',
    'admission/concurrent-resolves-never-exceed-replica-capacity',
    'pinned/retry-budget-admits-exactly-n-retries',
    'routing/contention-is-bounded-and-never-overbooks',
  ];

  it('admission one unit short of every limit and capacity, refused as contention: fails every burst case', async () => {
    // Each resolve that takes the last unit of a scope or of its replica is undone and answered
    // REPLICA_UNAVAILABLE, which a burst alone cannot tell from contention.
    const store = withBehaviour((inner) => ({
      async resolve(tenantId: string, request: ResolveRequest) {
        const view = await inner.resolve(tenantId, request);
        const { admission, replica_id: replicaId, instance_id: instanceId } = view.assignment;
        const scopes = [...admission.base_scopes, ...(admission.retry_scope ? [admission.retry_scope] : [])];
        const counters = await Promise.all(scopes.map((s) => inner.getAdmissionCounter(s.kind, s.key)));
        const replica = (await inner.getReplica(replicaId))!;
        if (scopes.some((s, i) => counters[i]!.active >= s.limit) || replica.active_assignments >= replica.capacity) {
          await inner.settle(tenantId, request.action_id, view.assignment, 'cancelled');
          throw replicaUnavailable(instanceId);
        }
        return view;
      },
    }));
    const outcome = await runAgainst(store, BURSTS);
    const failed = outcome.result!.cases.filter((c) => c.status === 'fail').map((c) => c.id);
    assert.deepEqual(failed.sort(), [...BURSTS].sort(), JSON.stringify(statuses(outcome)));
  });

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

  const PINNED_LIMITS = [
    'admission/lowered-limit-still-admits-a-pinned-retry',
    'admission/raised-limit-never-admits-a-retry-past-its-pinned-limit',
  ];

  it('retries checked against the current policy instead of their pinned limits: [admission-limits-pinned]', async () => {
    const store = withBehaviour((inner) => ({
      async resolve(tenantId: string, request: ResolveRequest) {
        const held = await heldRoute(inner, tenantId, request.action_id);
        const policyRef = held?.assignment.admission.policy_ref;
        const policy = policyRef ? await inner.getAdmissionPolicy(policyRef) : null;
        if (!held || !policy) return inner.resolve(tenantId, request);
        for (const s of held.assignment.admission.base_scopes) {
          if ((await inner.getAdmissionCounter(s.kind, s.key)).active >= (policy[POLICY_FIELD[s.kind]] as number))
            throw capacityExceeded(s.kind);
        }
        try {
          return await inner.resolve(tenantId, request);
        } catch (err) {
          // Refused only by the pinned limits, which this registry does not consult: it answers as admitted.
          if (RegistryError.is(err) && err.code === 'CAPACITY_EXCEEDED') return { ...held, reserved: true };
          throw err;
        }
      },
    }));
    assertFailed(await runAgainst(store, PINNED_LIMITS), PINNED_LIMITS, 'admission-limits-pinned');
  });

  it('retries that only a revoked version refuses, not an admitted one: [pinned-replica-conditions]', async () => {
    const cases = ['pinned/admitted-version-refuses-retry'];
    const store = withBehaviour((inner) => ({
      async resolve(tenantId: string, request: ResolveRequest) {
        const held = await heldRoute(inner, tenantId, request.action_id);
        try {
          return await inner.resolve(tenantId, request);
        } catch (err) {
          const version = held ? await inner.getVersion(held.assignment.version_id) : null;
          if (RegistryError.is(err) && err.code === 'REPLICA_UNAVAILABLE' && version?.status === 'admitted')
            return { ...held!, reserved: true };
          throw err;
        }
      },
    }));
    assertFailed(await runAgainst(store, cases), cases, 'pinned-replica-conditions');
  });

  /** The reference whose token checks run on a clock `skewMs` off its own: leeway on exp (behind) or on nbf (ahead). */
  async function lenientTokens(skewMs: number, cases: string[]): Promise<ConformOutcome> {
    const { privateJwk, jwks } = await generateSigningKeys();
    const store = new MemoryStore();
    const server = createRegistryServer({ store, jwks, now: () => Date.now() + skewMs, log: () => {} });
    const url = await server.listen(0, '127.0.0.1');
    try {
      const target = {
        key: await signingKeyFromJwk(privateJwk),
        config: (o: Partial<ConformConfig> = {}) => ({ ...resolveConfig({ target: url, keyFile: '(in memory)' }), ...o }),
      };
      return await runCases(target, cases);
    } finally {
      await server.close();
      await store.close();
    }
  }

  it('tokens accepted up to five minutes after exp: [auth-time]', async () => {
    const cases = ['auth-and-isolation/expired-token-is-unauthenticated'];
    assertFailed(await lenientTokens(-5 * 60_000, cases), cases, 'auth-time');
  });

  it('tokens accepted up to five minutes before nbf: [auth-time]', async () => {
    const cases = ['auth-and-isolation/not-yet-valid-token-is-unauthenticated'];
    assertFailed(await lenientTokens(5 * 60_000, cases), cases, 'auth-time');
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

  /**
   * Every other maintenance call takes the earliest stale replica and the next one, and reads show only the next
   * one offline until `shownAfterMs` (never: until the next call). With a time, that is a registry whose call found
   * the earliest held by a concurrent call, which commits it then; without, one that takes a later lease first.
   */
  const takesNextFirst = (shownAfterMs: number | null) =>
    withBehaviour((inner) => {
      let calls = 0;
      const ids = new Set<string>();
      const hidden = new Map<string, ConnectorReplica>();
      return {
        async provisionReplica(record: ReplicaProvision) {
          ids.add(record.id);
          return inner.provisionReplica(record);
        },
        async getReplica(id: string) {
          return hidden.get(id) ?? inner.getReplica(id);
        },
        async expireLeases(limit: number) {
          hidden.clear();
          if (calls++ % 2 === 0) return inner.expireLeases(limit);
          const live = (await Promise.all([...ids].map((id) => inner.getReplica(id)))).filter(
            (r): r is ConnectorReplica => r !== null && r.status !== 'offline',
          );
          const { expired } = await inner.expireLeases(limit + 1);
          if (expired <= limit) return { expired };
          const taken = (
            await Promise.all(live.map(async (r) => ((await inner.getReplica(r.id))?.status === 'offline' ? [r] : [])))
          ).flat();
          const [first] = taken.sort((a, b) => Date.parse(a.lease_expires_at) - Date.parse(b.lease_expires_at) || (a.id < b.id ? -1 : 1));
          if (first) {
            hidden.set(first.id, first);
            if (shownAfterMs !== null) setTimeout(() => hidden.delete(first.id), shownAfterMs);
          }
          return { expired: expired - 1 };
        },
      };
    });

  it('a correct registry that skips held replicas passes', async () => {
    for (const store of [skipsHeld, takesNextFirst(20)]) {
      const outcome = await runAgainst(store, LEASE_CASES);
      assert.deepEqual(statuses(outcome), Object.fromEntries(LEASE_CASES.map((id) => [id, 'pass'])));
    }
  });

  it('a registry that takes a later lease first fails', async () => {
    const order = ['leases/expiry-changes-at-most-limit-in-lease-order'];
    const outcome = await runAgainst(takesNextFirst(null), order);
    assertFailed(outcome, order, 'lease-expiry-bounded');
    assert.match(outcome.result!.cases[0]!.message ?? '', /stayed offline out of lease order/);
  });

  it('a registry whose maintenance never takes a stale replica offline fails', async () => {
    const outcome = await runAgainst(
      withBehaviour(() => ({ expireLeases: async () => ({ expired: 0 }) })),
      LEASE_CASES,
    );
    assertFailed(outcome, LEASE_CASES, 'lease-expiry-bounded');
  });
});
