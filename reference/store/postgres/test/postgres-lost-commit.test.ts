// Lost commit acknowledgements ([failure-indeterminate]). A backend killed
// around COMMIT may have committed: the store reads the action back on a
// fresh connection and answers with what is there when that settles it. Four
// clients resolve and settle fresh actions while every data backend is
// terminated every 100 ms; every answer must be true, every answer left
// STORAGE_UNAVAILABLE must converge when retried, and the run prints how many
// stayed indeterminate and how many of those had committed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { RouteAssignment, RouteView, SettlementResult } from '../../../../contract/records.ts';
import { RegistryError, storageUnavailable } from '../../../../contract/registry-error.ts';
import type { RegistryStore } from '../../registry-store.ts';
import { b } from '../../test/behaviour/world.ts';
import { overloaded } from '../database.ts';
import { overload } from './overload-answer.ts';
import { resolveKnowingLostCommits, settleKnowingLostCommits } from '../lost-commit.ts';
import { assertReconciled } from './test-invariants.ts';
import { postgresTestDatabases } from './test-database.ts';

const databases = postgresTestDatabases();
const HOUR = 3_600_000;
const CLIENTS = 4;
const KILLS = 30;
const KILL_EVERY_MS = 100;
const POLICY = b.policy('quota:lost', {
  max_tenant_in_flight: 100_000,
  max_instance_in_flight: 100_000,
  max_tenant_retry_in_flight: 100_000,
});
const request = (actionId: string) => ({ action_id: actionId, capability_id: 'cap:lost' });
/** A reserved route of action a, as a look-up finds it. */
const view: RouteView = {
  assignment: { action_id: 'a', tenant_id: 't', capability_id: 'c', fence_token: 'f' } as RouteAssignment,
  reserved: true,
  last_settlement: null,
};

async function seed(store: RegistryStore): Promise<void> {
  const version = b.version('cver_lost', 'ctype_lost', [b.capability('cap:lost')]);
  const { results } = await store.applyBatch([
    { op: 'put_admission_policy', record: POLICY },
    { op: 'put_connector_type', record: b.connectorType('ctype_lost') },
    { op: 'admit_version', record: version },
    { op: 'put_instance', record: b.instance('cinst_lost', 'ctype_lost', version.id, 'tenant-a') },
    { op: 'put_binding', record: b.binding('tenant-a', 'cap:lost', 'cinst_lost', { quota_policy_ref: POLICY.policy_ref }) },
    ...Array.from({ length: 8 }, (_, i) => ({
      op: 'provision_replica' as const,
      record: b.replica(`crepl_lost_${i}`, 'cinst_lost', version.id, Date.now() + HOUR, { capacity: 10_000 }),
    })),
  ]);
  assert.ok(results.every((r) => r.outcome === 'applied'));
}

/** The answer, or 'indeterminate' for STORAGE_UNAVAILABLE; any other error fails the test. */
async function answer<T>(call: () => Promise<T>): Promise<T | 'indeterminate'> {
  try {
    return await call();
  } catch (err) {
    assert.ok(RegistryError.is(err) && err.code === 'STORAGE_UNAVAILABLE', `a storage fault surfaced as ${String(err)}`);
    return 'indeterminate';
  }
}

interface Action {
  id: string;
  resolved: RouteView | 'indeterminate';
  settled: SettlementResult | 'indeterminate' | null;
}

describe('postgres lost commit acknowledgements', () => {
  it('a committed resolve whose acknowledgement was lost is answered from the stored route', async () => {
    const lost = async (): Promise<never> => {
      throw storageUnavailable('connection terminated during COMMIT');
    };
    assert.equal(await resolveKnowingLostCommits('t', { action_id: 'a', capability_id: 'c' }, lost, async () => view), view);
    await assert.rejects(
      resolveKnowingLostCommits('t', { action_id: 'a', capability_id: 'other' }, lost, async () => view),
      /terminated/,
      'another capability is no answer',
    );
    await assert.rejects(
      resolveKnowingLostCommits('t', { action_id: 'a', capability_id: 'c' }, lost, async () => Promise.reject(new Error('down'))),
      /terminated/,
      'an unreadable store leaves it indeterminate',
    );
    let retried = 0;
    const again = async (): Promise<SettlementResult> =>
      ++retried === 1 ? lost() : { action_id: 'a', released: true, last_settlement: 'completed' };
    assert.deepEqual(
      await settleKnowingLostCommits(view.assignment, again, async () => view),
      { action_id: 'a', released: true, last_settlement: 'completed' },
      'a reservation still held means the settle did not commit: it is sent again',
    );
    await assert.rejects(
      settleKnowingLostCommits(view.assignment, lost, async () => ({ ...view, reserved: false })),
      /terminated/,
      'a released route stays indeterminate',
    );
  });

  it('[failure-overload] an overload answer was never sent: it is answered at once, without a look-up or a retry', async () => {
    let calls = 0;
    let lookUps = 0;
    const refused = async (): Promise<never> => {
      calls++;
      throw overloaded('1 requests already wait for a connection');
    };
    const lookUp = async () => {
      lookUps++;
      return null;
    };
    const refusal = overload(/1 requests already wait for a connection/);
    await assert.rejects(resolveKnowingLostCommits('t', request('a'), refused, lookUp), refusal);
    await assert.rejects(
      settleKnowingLostCommits(view.assignment, refused, async () => (lookUps++, view)),
      refusal,
    );
    assert.deepEqual({ calls, lookUps }, { calls: 2, lookUps: 0 });
  });

  it('[failure-indeterminate] backends terminated around COMMIT: true answers, and retries converge', async () => {
    const { store, db } = await databases.openStore({ dataPoolSize: 8 });
    const killer = new pg.Client(db.url);
    try {
      await seed(store);
      await killer.connect();
      let done = false;
      const kills = (async () => {
        for (let i = 0; i < KILLS; i++) {
          await sleep(KILL_EVERY_MS);
          await killer.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND application_name = 'fleetproof-data'`,
            [db.name],
          );
        }
        done = true;
      })();
      const actions: Action[] = [];
      await Promise.all(
        Array.from({ length: CLIENTS }, async (_, c) => {
          for (let n = 0; !done; n++) {
            const action: Action = { id: `act-lost-${c}-${n}`, resolved: 'indeterminate', settled: null };
            actions.push(action);
            action.resolved = await answer(() => store.resolve('tenant-a', request(action.id)));
            if (action.resolved !== 'indeterminate') {
              const assignment = action.resolved.assignment;
              action.settled = await answer(() => store.settle('tenant-a', action.id, assignment, 'completed'));
            }
            if (action.resolved === 'indeterminate' || action.settled === 'indeterminate') await sleep(2);
          }
        }),
      );
      await kills;

      // What the store said is what it stored.
      const stored = new Map<string, RouteView | null>();
      for (const a of actions) stored.set(a.id, await store.route('tenant-a', a.id));
      for (const a of actions) {
        const s = stored.get(a.id)!;
        if (a.resolved !== 'indeterminate')
          assert.deepEqual(s?.assignment, a.resolved.assignment, `resolve of ${a.id} answered but not stored`);
        if (a.settled !== null && a.settled !== 'indeterminate' && a.settled.released)
          assert.equal(s?.reserved, false, `settle of ${a.id} answered but not stored`);
      }
      const indeterminateResolves = actions.filter((a) => a.resolved === 'indeterminate');
      const indeterminateSettles = actions.filter((a) => a.settled === 'indeterminate');
      console.log(
        `lost commits: ${actions.length} resolves, ${indeterminateResolves.length} left indeterminate (${indeterminateResolves.filter((a) => stored.get(a.id)).length} had committed); ` +
          `${actions.filter((a) => a.settled !== null).length} settles, ${indeterminateSettles.length} left indeterminate (${indeterminateSettles.filter((a) => stored.get(a.id)?.reserved === false).length} had committed)`,
      );

      // Retrying the same requests converges: the one assignment, then a release.
      for (const a of actions) {
        const view = await store.resolve('tenant-a', request(a.id));
        const before = stored.get(a.id);
        if (before) assert.deepEqual(view.assignment, before.assignment, `a retried resolve of ${a.id} moved its assignment`);
        const settled = await store.settle('tenant-a', a.id, view.assignment, 'completed');
        assert.equal(
          (await store.route('tenant-a', a.id))?.reserved,
          false,
          `settling ${a.id} left it reserved (${JSON.stringify(settled)})`,
        );
      }
      await assertReconciled(db.url);
    } finally {
      await killer.end().catch(() => {});
      await store.close();
    }
  });
});
