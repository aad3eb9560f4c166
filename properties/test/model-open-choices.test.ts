// Where the contract leaves a registry a choice (spec.md §20), the model
// accepts every allowed answer: a rule that predicts only the reference's
// would fail a correct registry that chose otherwise. The last tests run a
// suite against a registry that makes such a choice.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_LIMITS } from '../../contract/records.ts';
import type { ModelState } from '../model/model-state.ts';
import { provisionReplica, putPolicy, reportHealth } from '../model/rules/records.ts';
import { stateAfterSeed, seedItems } from '../model/seed-fleet.ts';
import { openUntilKept, type SettlementSnapshot } from '../model/settlement-probe.ts';
import { T0, universeOf } from '../targets/target.ts';
import { RegistryError } from '../../contract/registry-error.ts';
import { runProperties } from '../runner/run-properties.ts';
import { withStore } from './support.ts';

const u = universeOf('', DEFAULT_LIMITS);
const fresh = (): ModelState => stateAfterSeed(seedItems(u, T0), 1);
const outcomes = (branches: Array<{ outcome: unknown }>) => branches.map((b) => JSON.stringify(b.outcome)).sort();

describe('model rules where the contract leaves a choice open', () => {
  it('[records-replica-provision] the original body after a health report is unchanged or CONFLICT', () => {
    const s = fresh();
    const id = u.replica('a-alpha', 1);
    const original = structuredClone(s.replicas[id]!.provision);
    const [drained] = reportHealth(s, id, { ...s.replicas[id]!.health, status: 'draining', health_revision: original.health_revision + 1 });
    assert.equal(drained!.outcome.ok, true);
    assert.deepEqual(
      outcomes(provisionReplica(drained!.state, original)),
      [JSON.stringify({ ok: false, code: 'CONFLICT' }), JSON.stringify({ ok: true, value: 'unchanged' })].sort(),
    );
    // Any other body is a conflict whichever way the registry compares.
    assert.deepEqual(outcomes(provisionReplica(drained!.state, { ...original, endpoint: `${original.endpoint}/other` })), [
      JSON.stringify({ ok: false, code: 'CONFLICT' }),
    ]);
  });

  it('[error-precedence] an existing replica at another version may be CONFLICT or INVALID_REQUEST', () => {
    const s = fresh();
    const record = { ...s.replicas[u.replica('a-alpha', 1)]!.provision, version_id: u.version('alpha-2') };
    assert.deepEqual(outcomes(provisionReplica(s, record)), [
      JSON.stringify({ ok: false, code: 'CONFLICT' }),
      JSON.stringify({ ok: false, code: 'INVALID_REQUEST' }),
    ]);
  });

  it('[error-precedence] a policy out of bounds with a stale revision may be INVALID_REQUEST or CONFLICT', () => {
    const s = fresh();
    const tight = s.policies[u.policy('tight')]!;
    assert.deepEqual(outcomes(putPolicy(s, { ...tight, circuit_open_ms: 50 })), [
      JSON.stringify({ ok: false, code: 'CONFLICT' }),
      JSON.stringify({ ok: false, code: 'INVALID_REQUEST' }),
    ]);
    assert.deepEqual(outcomes(putPolicy(s, { ...tight, circuit_open_ms: 50, revision: tight.revision + 1 })), [
      JSON.stringify({ ok: false, code: 'INVALID_REQUEST' }),
    ]);
  });

  it('[circuit-read] a past open_until may be kept or cleared, a future one only kept', () => {
    const snapshot = (open_until: string | null, at: number): SettlementSnapshot => ({
      active: 0,
      circuit: { state: 'closed', consecutive_failures: 0, open_until },
      counters: {},
      route: null,
      window: { lo: at, hi: at },
    });
    const until = new Date(T0 + 300).toISOString();
    assert.equal(openUntilKept(snapshot(until, T0), snapshot(until, T0 + 400)), true);
    assert.equal(openUntilKept(snapshot(until, T0), snapshot(null, T0 + 400)), true);
    assert.equal(openUntilKept(snapshot(until, T0), snapshot(null, T0 + 100)), false, 'cleared while still open');
    assert.equal(openUntilKept(snapshot(null, T0), snapshot(until, T0 + 100)), false, 'opened');
  });
});

/**
 * A registry that looks the binding up before it validates a resolve body: a body naming a tenant, for a new
 * action the caller has no binding for, is BINDING_UNAVAILABLE, naming the caller (correct) or the body's tenant.
 */
const bindingLookedUpFirst = (named: 'caller' | 'body') =>
  withStore((store) => ({
    async resolve(tenant, req) {
      const smuggled = (req as { tenant_id?: string }).tenant_id;
      if (smuggled !== undefined && !(await store.route(tenant, req.action_id)) && !(await store.route(smuggled, req.action_id))) {
        const visible = await store.getCapability(req.capability_id, { tenant_id: tenant, allow_unbound: false });
        if (!visible)
          throw new RegistryError('BINDING_UNAVAILABLE', 'no binding', {
            details: { tenant_id: named === 'caller' ? tenant : smuggled, capability_id: req.capability_id },
          });
      }
      return store.resolve(tenant, req);
    },
  }));

describe('suites against registries that make another legal choice', () => {
  it('[error-precedence] a resolve body naming a tenant may be refused for the binding it lacks', async () => {
    // Before, the model allowed only INVALID_REQUEST (or CONFLICT for another tenant's action) and failed it.
    const [s] = (await runProperties({ target: bindingLookedUpFirst('caller'), suites: ['tenant-isolation'], runs: 60, seed: 4, env: {} }))
      .suites;
    assert.equal(s!.status, 'pass', s!.violation?.message ?? s!.error ?? undefined);
  });

  it('[auth-tenant-from-token] but not with a refusal that names the tenant the body gave', async () => {
    // The code is one the model allows, the details are not.
    const [s] = (await runProperties({ target: bindingLookedUpFirst('body'), suites: ['tenant-isolation'], runs: 60, seed: 4, env: {} }))
      .suites;
    assert.equal(s!.status, 'fail');
    assert.match(
      s!.violation!.message,
      /answered BINDING_UNAVAILABLE .*a body naming a tenant must be INVALID_REQUEST or BINDING_UNAVAILABLE/s,
    );
  });
});
