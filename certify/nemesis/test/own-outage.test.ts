// While the harness's own nemesis has the target down (its process gone:
// connections refused), a read waits for the heal and is sent again, and a
// refused write is indeterminate, given back once the registry is ready
// again; outside the nemesis's faults a refused connection still means the
// target went away. The target is the reference behind a loopback gate that
// refuses connections while it is shut, as a killed process does.
import assert from 'node:assert/strict';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { IndeterminateOutcome } from '../../../properties/check/violations.ts';
import { seedFleet } from '../../../properties/model/seed-fleet.ts';
import { resolveNew } from '../../../properties/model/rules/routing.ts';
import { httpTarget, type HttpTarget } from '../../../properties/targets/http-target.ts';
import { TargetUnreachable } from '../../../properties/targets/http/http-client.ts';
import { startEmbeddedReference } from '../../../reference/embedded-reference.ts';
import { DEFAULT_SCHEDULE, startNemesis, type Fault, type NemesisRun } from '../nemesis.ts';

/** A TCP gate on a fixed port in front of `upstream`: shut, it refuses every connection. */
async function gate(upstream: number) {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const open = () =>
    new Promise<void>((resolve) => {
      server = createServer((inbound) => {
        const outbound = connect(upstream, '127.0.0.1');
        for (const s of [inbound, outbound]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => {});
        }
        inbound.pipe(outbound).pipe(inbound);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  const shut = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      if (!server) return resolve();
      server.close(() => resolve());
      server = null;
    });
  await open();
  return { url: () => `http://127.0.0.1:${port}`, open, shut };
}

// The fault lasts until the test stops the schedule, which heals it: no step waits on the clock.
const schedule = { ...DEFAULT_SCHEDULE, faultMs: 10 * 60_000, quietMs: 10, maxFaults: 1, readyTimeoutMs: 10_000 };

/** Resolves once `test` holds, looking again every few milliseconds. */
async function until(test: () => boolean): Promise<void> {
  while (!test()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe("calls during the harness's own outage", () => {
  let reference: Awaited<ReturnType<typeof startEmbeddedReference>>;
  let front: Awaited<ReturnType<typeof gate>>;
  before(async () => {
    reference = await startEmbeddedReference({ store: 'memory' });
    front = await gate(Number(new URL(reference.url).port));
  });
  after(async () => {
    await front.shut();
    await reference.close();
  });

  /**
   * A nemesis whose one fault shuts the gate once `fall` is called; `target` speaks through the gate and knows the
   * nemesis's outage. `fall` resolves once the gate is shut.
   */
  async function underOutage(body: (target: HttpTarget, run: NemesisRun, fall: () => Promise<void>) => Promise<void>) {
    let injected = () => {};
    const fell = new Promise<void>((resolve) => (injected = resolve));
    const shutting: Fault = { name: 'process-kill', inject: async () => (await front.shut(), injected()), heal: front.open };
    let arm = () => {};
    const armed = new Promise<void>((resolve) => (arm = resolve));
    const run = startNemesis([shutting], schedule, front.url(), () => {}, { armed });
    const target = await httpTarget({
      url: front.url(),
      key: reference.signingKey,
      requestTimeoutMs: 2000,
      faults: { readRetryMs: 1000, outage: run.outage },
    });
    try {
      await body(target, run, () => (arm(), fell));
    } finally {
      await run.stop();
      await target.close();
    }
  }

  it('sends a refused read again once the fault is healed and the registry ready', () =>
    underOutage(async (target, run, fall) => {
      await fall();
      const read = target.store.fleetStatus();
      await until(() => target.store.tally.indeterminate > 0);
      await run.stop();
      const status = await read;
      assert.equal(typeof status.catalog_revision, 'number');
      assert.notEqual(run.bands[0]!.recovery_ms, null, 'answered after the registry said it was ready again');
      assert.ok(target.store.tally.readRetries > 0);
    }));

  it('makes a refused write indeterminate, and gives it back once the registry is ready', () =>
    underOutage(async (target, run, fall) => {
      const open = await target.openRun();
      const m = await seedFleet(open);
      const action_id = `${m.u.ns}refused`;
      const binding = Object.values(m.s.bindings).find((b) =>
        resolveNew(m.s, b.tenant_id, { action_id, capability_id: b.capability_id }, open.clock.now()).some((br) => br.outcome.ok),
      )!;
      await fall();
      let givenBack = false;
      const write = open.store
        .resolve(binding.tenant_id, { action_id, capability_id: binding.capability_id })
        .finally(() => (givenBack = true));
      await until(() => target.store.tally.indeterminate > 0);
      assert.equal(givenBack, false, 'held while the fault lasts');
      await run.stop();
      await assert.rejects(write, (err) => IndeterminateOutcome.is(err) && !err.read && err.mayStillActMs === 0);
      assert.notEqual(run.bands[0]!.recovery_ms, null, 'given back after the registry said it was ready again');
      assert.equal(await open.store.route(binding.tenant_id, action_id), null, 'a refused connection reached nothing');
    }));

  it('still says the target went away when no fault of its own has it down', async () => {
    const idle = startNemesis([], schedule, front.url(), () => {});
    const target = await httpTarget({ url: front.url(), key: reference.signingKey, faults: { readRetryMs: 1000, outage: idle.outage } });
    await front.shut();
    try {
      await assert.rejects(target.store.fleetStatus(), (err) => err instanceof TargetUnreachable);
    } finally {
      await front.open();
      await target.close();
      await idle.stop();
    }
  });
});
