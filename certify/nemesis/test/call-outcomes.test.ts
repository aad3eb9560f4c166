// Through the fault proxy, a write the proxy reset before forwarding is
// recorded as failed (the registry never saw it: no route afterwards), and a
// write whose answer the proxy dropped after forwarding as indeterminate
// (the registry acted: the route is there, and it is done acting; a lost
// connection no ledger explains gets a timeout's time to finish, which the
// sweep waits out before it reads). The sweep then finds an acknowledged
// settlement a registry lost.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RouteAssignment, SettlementOutcome } from '../../../contract/records.ts';
import { IndeterminateOutcome, NotForwarded } from '../../../properties/check/violations.ts';
import type { Op } from '../../../properties/check/history.ts';
import { resolveNew } from '../../../properties/model/rules/routing.ts';
import { seedFleet } from '../../../properties/model/seed-fleet.ts';
import { httpTarget } from '../../../properties/targets/http-target.ts';
import { startEmbeddedReference } from '../../../reference/embedded-reference.ts';
import { openReferenceStore } from '../../../reference/store/open-store.ts';
import type { RegistryStore } from '../../../reference/store/registry-store.ts';
import { startFaultProxy } from '../fault-proxy.ts';
import { globalBaseline, quietBeforeSweepMs, sweep } from '../sweep.ts';

type Reference = Awaited<ReturnType<typeof startEmbeddedReference>>;

async function throughProxy(
  start: () => Promise<Reference>,
  body: (ctx: {
    proxy: Awaited<ReturnType<typeof startFaultProxy>>;
    target: Awaited<ReturnType<typeof httpTarget>>;
    history: Op[];
  }) => Promise<void>,
  ledger = true,
) {
  const reference = await start();
  const proxy = await startFaultProxy({ target: reference.url, seed: 5 });
  const history: Op[] = [];
  const fates = ledger
    ? {
        notForwarded: (id: string) => proxy.fateOf(id) === 'reset-before-forward',
        answeredThenLost: (id: string) => proxy.fateOf(id) === 'lost-after-forward',
      }
    : {};
  const target = await httpTarget({ url: proxy.url, key: reference.signingKey, faults: { ...fates, readRetryMs: 10_000, history } });
  try {
    await body({ proxy, target, history });
  } finally {
    await target.close();
    await proxy.close();
    await reference.close();
  }
}

/** A fresh run with its fleet seeded, and a resolve request for it. */
async function seeded(target: Awaited<ReturnType<typeof httpTarget>>, action: string) {
  const run = await target.openRun();
  const m = await seedFleet(run);
  const action_id = `${m.u.ns}${action}`;
  // A binding the model says routes a new action now.
  const routable = Object.values(m.s.bindings).find((b) =>
    resolveNew(m.s, b.tenant_id, { action_id, capability_id: b.capability_id }, run.clock.now()).some((br) => br.outcome.ok),
  )!;
  return { run, tenant: routable.tenant_id, req: { action_id, capability_id: routable.capability_id } };
}

describe('outcomes through the fault proxy', () => {
  it('records a write reset before forwarding as failed, and the registry never saw it', () =>
    throughProxy(
      () => startEmbeddedReference({ store: 'memory' }),
      async ({ proxy, target, history }) => {
        const { run, tenant, req } = await seeded(target, '1');
        proxy.fault({ latencyMs: [0, 0], resetBeforeForward: 1, loseResponse: 0 });
        await assert.rejects(run.store.resolve(tenant, req), (err) => NotForwarded.is(err));
        proxy.heal();
        assert.deepEqual(
          history.map((op) => [op.kind, op.type]),
          [['resolve', 'fail']],
        );
        assert.equal(target.store.tally.notForwarded, 1);
        assert.equal(target.store.tally.indeterminate, 0);
        assert.equal(await run.store.route(tenant, req.action_id), null);
      },
    ));

  it('records a write whose answer was dropped as indeterminate, and the registry did act', () =>
    throughProxy(
      () => startEmbeddedReference({ store: 'memory' }),
      async ({ proxy, target, history }) => {
        const { run, tenant, req } = await seeded(target, '1');
        proxy.fault({ latencyMs: [0, 0], resetBeforeForward: 0, loseResponse: 1 });
        // The proxy saw the registry's answer go by: the registry is done with it, nothing to wait out.
        await assert.rejects(run.store.resolve(tenant, req), (err) => IndeterminateOutcome.is(err) && !err.read && err.mayStillActMs === 0);
        proxy.heal();
        assert.deepEqual(
          history.map((op) => [op.kind, op.type, op.actingUntil]),
          [['resolve', 'info', undefined]],
        );
        assert.equal(target.store.tally.indeterminate, 1);
        assert.equal((await run.store.route(tenant, req.action_id))?.reserved, true);
      },
    ));

  it('gives a write whose connection was lost, with no ledger to say it was answered, a timeout to finish', () =>
    throughProxy(
      () => startEmbeddedReference({ store: 'memory' }),
      async ({ proxy, target, history }) => {
        const { run, tenant, req } = await seeded(target, '1');
        proxy.fault({ latencyMs: [0, 0], resetBeforeForward: 0, loseResponse: 1 });
        let mayStillActMs = 0;
        await assert.rejects(
          run.store.resolve(tenant, req),
          (err) => IndeterminateOutcome.is(err) && (mayStillActMs = err.mayStillActMs) > 0,
        );
        // The history keeps that time, so the sweep reads the registry back only once it has passed.
        const [op] = history;
        assert.ok(
          op?.actingUntil !== undefined && op.actingUntil >= op.invoke + mayStillActMs && op.actingUntil <= op.complete + mayStillActMs,
          JSON.stringify(op),
        );
        assert.equal(quietBeforeSweepMs(history, op.complete, 1000), Math.max(1000, op.actingUntil - op.complete));
        assert.equal(quietBeforeSweepMs(history, op.actingUntil + 1, 1000), 1000, 'once it has passed, the recovery window alone');
      },
      false,
    ));

  it('sends a read whose answer was lost again until it is answered', () =>
    throughProxy(
      () => startEmbeddedReference({ store: 'memory' }),
      async ({ proxy, target }) => {
        proxy.fault({ latencyMs: [0, 0], resetBeforeForward: 0, loseResponse: 1 });
        setTimeout(() => proxy.heal(), 300);
        const status = await target.store.fleetStatus();
        assert.equal(typeof status.catalog_revision, 'number');
        assert.ok(target.store.tally.readRetries > 0);
      },
    ));

  it('the sweep finds a settlement acknowledged as released that the registry lost', async () => {
    const memory = await openReferenceStore('memory');
    const losing = new Proxy(memory, {
      get(t, prop, receiver) {
        if (prop !== 'settle') return Reflect.get(t, prop, receiver);
        return async (_tenant: string, action: string, _a: RouteAssignment, outcome: SettlementOutcome) => ({
          action_id: action,
          released: true,
          last_settlement: outcome,
        });
      },
    }) as RegistryStore;
    await throughProxy(
      () => startEmbeddedReference({ store: losing }),
      async ({ target, history }) => {
        const { run, tenant, req } = await seeded(target, '1');
        const baseline = await globalBaseline(run.store);
        const view = await run.store.resolve(tenant, req);
        assert.equal((await run.store.settle(tenant, req.action_id, view.assignment, 'completed')).released, true);
        const result = await sweep(run.store, history, baseline);
        assert.ok(
          result.violations.some((v) => /acknowledged as released/.test(v) && /client 0 settle/.test(v)),
          result.violations.join('\n'),
        );
      },
    );
  });
});
