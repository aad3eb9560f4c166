// The runner's verdicts: a write that timed out is neither nothing nor a
// failure, so the model reads back what it did, records it may have created
// included; a run whose setup stays
// indeterminate is skipped, and a suite that can judge nothing is an error; a
// broken harness or target is an error, not a counterexample; seeds and
// replay paths round-trip.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IndeterminateOutcome } from '../check/violations.ts';
import { formatReplayPath, parseReplayPath } from '../runner/replay-path.ts';
import { exitCodeOf, runProperties, type PropertiesResult } from '../runner/run-properties.ts';
import { chooseSeed, parseSeed } from '../runner/seed.ts';
import { referenceMemoryTarget } from '../../cli/reference-targets.ts';
import { withStore } from './support.ts';
import type { ScopeKind } from '../../contract/errors.ts';
import type { ResolveRequest } from '../../contract/records.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const timedOut = () => Promise.reject(new IndeterminateOutcome('timed out after 10 ms'));

describe('property runner', () => {
  it('judges runs whose writes timed out by reading back what they did: nothing, or exactly their effect', async () => {
    const nothing = withStore(() => ({ resolve: timedOut }));
    const acted = withStore((store) => ({ resolve: (tenant, req) => store.resolve(tenant, req).then(timedOut) }));
    for (const target of [nothing, acted]) {
      const [s] = (await runProperties({ target, suites: ['pinned-routes'], runs: 20, seed: 7, env: {} })).suites;
      assert.equal(s!.status, 'pass', s!.violation?.message);
      assert.equal(s!.indeterminateRuns, 0, 'no run was skipped: each indeterminate resolve was read back');
    }
  });

  it('reads a timed-out write back only once the registry may no longer be acting on it', async () => {
    // This registry applies every fourth resolve 30 ms after its client gave up on it (queued for storage, say), and
    // takes 3 ms over every call, so the run is still going then. Read back at once, the resolve looked like it had
    // done nothing, and then it routed.
    const late = withStore((store) => {
      let calls = 0;
      const slow =
        <A extends unknown[], R>(f: (...a: A) => Promise<R>) =>
        async (...a: A) => (await sleep(3), f(...a));
      return {
        resolve: slow((tenant: string, req: ResolveRequest) => {
          if (++calls % 4 !== 0) return store.resolve(tenant, req);
          setTimeout(() => void store.resolve(tenant, req).catch(() => {}), 30);
          return Promise.reject(new IndeterminateOutcome('timed out after 60 ms', { mayStillActMs: 60 }));
        }),
        catalogRevision: slow(() => store.catalogRevision()),
        route: slow((tenant: string, action: string) => store.route(tenant, action)),
        getAdmissionCounter: slow((kind: ScopeKind, key: string) => store.getAdmissionCounter(kind, key)),
      };
    });
    // The model suites read it back; the contention suites audit the burst (before, its reservation landed mid-audit).
    for (const [suite, runs] of [
      ['pinned-routes', 40],
      ['no-overbooking', 20],
      ['shared-actions', 20],
    ] as const) {
      const [s] = (await runProperties({ target: late, suites: [suite], runs, seed: 7, env: {} })).suites;
      assert.equal(s!.status, 'pass', `${suite}: ${s!.violation?.message ?? s!.error}`);
      assert.equal(s!.indeterminateRuns, 0, suite);
    }
  });

  it('reads back a record that a write whose answer was lost created, which no earlier read could have shown', async () => {
    // Read back with only the records the model already had, a provisioned replica looked like nothing happened,
    // until a resolve was routed to it (seed 9). The run's seeding batch provisions through the same method, so
    // only provisions after the first route lose their answer.
    const acted = withStore((store) => {
      let routed = false;
      return {
        resolve: (tenant, req) => ((routed = true), store.resolve(tenant, req)),
        provisionReplica: (record) => (routed ? store.provisionReplica(record).then(timedOut) : store.provisionReplica(record)),
      };
    });
    const [s] = (await runProperties({ target: acted, suites: ['model-agreement'], runs: 150, seed: 9, env: {} })).suites;
    assert.equal(s!.status, 'pass', s!.violation?.message ?? s!.error ?? undefined);
    assert.equal(s!.indeterminateRuns, 0, 'no run was skipped: each indeterminate provision was read back');
  });

  it('finds a write that, its answer lost, took effect twice', async () => {
    // The lost resolve also books a second route: no outcome of one resolve explains the state read back.
    const twice = withStore((store) => ({
      resolve: (tenant, req) =>
        store
          .resolve(tenant, req)
          .then(() => store.resolve(tenant, { ...req, action_id: `${req.action_id}.again` }))
          .then(timedOut),
    }));
    const [s] = (await runProperties({ target: twice, suites: ['pinned-routes'], runs: 20, seed: 7, env: {} })).suites;
    assert.equal(s!.status, 'fail');
    assert.match(s!.violation!.message, /got no answer .*matches no outcome it could have had/s);
  });

  it('names the rule a refused request broke when its answer was lost and the registry obeyed it', async () => {
    // A body naming a tenant must be refused and change nothing; this registry routes for the named tenant, then the
    // answer is lost. The change read back is the broken rule, tenant isolation, as it is when the answer arrives.
    const obeys = withStore((store) => ({
      resolve: (tenant, req) => {
        const { tenant_id: named, ...rest } = req as ResolveRequest & { tenant_id?: string };
        return named === undefined ? store.resolve(tenant, req) : store.resolve(named, rest).then(timedOut);
      },
    }));
    const [s] = (await runProperties({ target: obeys, suites: ['tenant-isolation'], runs: 100, seed: 7, env: {} })).suites;
    assert.equal(s!.status, 'fail', s!.error ?? undefined);
    assert.match(s!.violation!.message, /with a body naming the other tenant got no answer .*matches no outcome it could have had/s);
    assert.equal(s!.violation!.property, 'tenant-isolation');
  });

  it('reports an error, not a counterexample, when every run is indeterminate', async () => {
    const target = withStore(() => ({ applyBatch: timedOut }));
    const [s] = (await runProperties({ target, suites: ['model-agreement'], runs: 3, seed: 7, env: {} })).suites;
    assert.equal(s!.status, 'error');
    assert.match(s!.error!, /indeterminate/);
  });

  it('reports a harness failure as an error without searching for a smaller one', async () => {
    const target = withStore(() => ({ getAdmissionCounter: () => Promise.reject(new TypeError('broken harness')) }));
    const [s] = (await runProperties({ target, suites: ['idempotent-settlement'], runs: 50, seed: 7, env: {} })).suites;
    assert.equal(s!.status, 'error');
    assert.match(s!.error!, /broken harness/);
    assert.equal(exitCodeOf({ suites: [s!] } as PropertiesResult), 2);
  });

  it('takes the seed given, then FC_SEED, derives one in CI, and otherwise draws one', () => {
    assert.deepEqual(chooseSeed(12, { FC_SEED: '34' }), { seed: 12, source: 'given' });
    assert.deepEqual(chooseSeed(undefined, { FC_SEED: '34' }), { seed: 34, source: 'FC_SEED' });
    const ci = { CI: 'true', GITHUB_SHA: 'abc', GITHUB_RUN_ID: '99' };
    assert.equal(chooseSeed(undefined, ci).source, 'derived');
    assert.equal(chooseSeed(undefined, ci).seed, chooseSeed(undefined, { ...ci }).seed);
    assert.notEqual(chooseSeed(undefined, ci).seed, chooseSeed(undefined, { ...ci, GITHUB_RUN_ID: '100' }).seed);
    assert.equal(chooseSeed(undefined, {}).source, 'random');
    assert.throws(() => parseSeed('1.5'), RangeError);
  });

  it('round-trips a path with and without the commands’ replay path', () => {
    assert.deepEqual(parseReplayPath(formatReplayPath({ path: '3:0:1', commands: 'AB:q' })), { path: '3:0:1', commands: 'AB:q' });
    assert.deepEqual(parseReplayPath('12'), { path: '12' });
    assert.throws(() => parseReplayPath('x:1'), RangeError);
  });

  it('needs exactly one suite to replay a path', async () => {
    await assert.rejects(runProperties({ target: referenceMemoryTarget(), path: '1:2', env: {} }), /exactly one suite/);
  });
});
