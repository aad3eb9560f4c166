// The faults stage against registries served over HTTP: the reference
// passes every property suite and the sweep while the proxy resets
// requests and loses answers, and registries broken where faults bite fail
// it — one that picks a replica anew when a retry follows a lost answer,
// one that reserves capacity outside its commit, one that acknowledges a
// settlement it then loses.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { RegistryStore } from '../../../reference/store/registry-store.ts';
import { startEmbeddedReference } from '../../../reference/embedded-reference.ts';
import { openReferenceStore } from '../../../reference/store/open-store.ts';
import { startDefectiveReference } from '../../../reference/defects/defective.ts';
import type { RouteAssignment, SettlementOutcome } from '../../../contract/records.ts';
import type { FaultsDocument } from '../../../reports/schemas/faults-result.ts';
import { DEFAULT_SCHEDULE } from '../../nemesis/nemesis.ts';
import { FAULT_SUITES, faultsStage, type FaultsStageOptions } from '../faults-stage.ts';

const root = await mkdtemp(join(tmpdir(), 'fleetproof-faults-'));
after(() => rm(root, { recursive: true, force: true }));

const SCHEDULE = { ...DEFAULT_SCHEDULE, faultMs: 400, quietMs: 200, maxDurationMs: 60_000 };

/** A broken registry is searched round after round, by the suites its defect is about, until the stage finds it or four rounds passed. */
const HUNT = { runs: 8, minFaults: Number.MAX_SAFE_INTEGER, maxRounds: 4 };
const CONTENTION = { suites: ['no-overbooking', 'shared-actions'] as const };

/** The reference: every suite, a few runs each, one round. */
const EVERY_SUITE = { runs: 3, minFaults: 2, maxRounds: 1 };

async function stageAgainst(
  name: string,
  reference: Awaited<ReturnType<typeof startEmbeddedReference>>,
  rounds: Partial<FaultsStageOptions>,
) {
  const out = join(root, name);
  try {
    const output = await faultsStage(
      {
        out,
        runId: 'fp20261201t000000faults02',
        targetUrl: reference.url,
        key: reference.signingKey,
        keyPath: reference.signingKeyPath,
        profile: 'smoke',
        targetFlags: '--target T --key K',
        log: () => {},
      },
      {
        nemesis: {
          kinds: ['proxy'],
          schedule: SCHEDULE,
          seed: 11,
          proxyFaults: { latencyMs: [0, 20], resetBeforeForward: 0.1, loseResponse: 0.2 },
        },
        ...rounds,
        seed: 20261201,
      },
    );
    const doc = JSON.parse(await readFile(join(out, 'faults', 'result.json'), 'utf8')) as FaultsDocument;
    return { output, doc };
  } finally {
    await reference.close();
  }
}

const withDefect = (defect: string) => startDefectiveReference(defect, { store: 'memory' });

/** Acknowledges every second settlement of a held route as released, and never makes it. */
function losingSettlements(store: RegistryStore): RegistryStore {
  let n = 0;
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop !== 'settle') return Reflect.get(target, prop, receiver);
      return async (tenant: string, action: string, assignment: RouteAssignment, outcome: SettlementOutcome) => {
        const route = await target.route(tenant, action);
        if (route?.reserved && ++n % 2 === 0) return { action_id: action, released: true, last_settlement: outcome };
        return target.settle(tenant, action, assignment, outcome);
      };
    },
  });
}

describe('the faults stage', { concurrency: true }, () => {
  it('passes the reference in every suite and the sweep while the proxy resets connections and loses answers', async () => {
    const { output, doc } = await stageAgainst('reference', await startEmbeddedReference({ store: 'memory' }), EVERY_SUITE);
    assert.equal(output.record.status, 'passed', [...output.record.reasons, ...output.failures.map((f) => f.message)].join('; '));
    assert.deepEqual(doc.properties?.suites.map((s) => s.name).sort(), [...FAULT_SUITES].sort());
    assert.ok(doc.figures.faults >= 2);
    assert.ok(doc.figures.lost_after_forward > 0 && doc.figures.reset_before_forward > 0, 'the proxy disturbed nothing');
    // Of the harness's own calls, some were surely never forwarded and some lost their answer: both kinds were judged.
    assert.ok(doc.calls && doc.calls.notForwarded > 0 && doc.calls.indeterminate > 0, JSON.stringify(doc.calls));
    assert.ok(doc.sweep && doc.sweep.ops > 0 && doc.sweep.violations.length === 0, JSON.stringify(doc.sweep));
    assert.ok(doc.traffic.length > 0);
    assert.ok(output.evidence.some((e) => e.clause === 'failure-storage' && e.status === 'pass'));
  });

  for (const defect of ['reselect-on-retry', 'capacity-outside-lock'] as const) {
    it(`fails a registry with the defect ${defect}`, async () => {
      const { output, doc } = await stageAgainst(defect, await withDefect(defect), { ...HUNT, ...CONTENTION });
      assert.equal(output.record.status, 'failed', output.record.reasons.join('; '));
      assert.ok(output.failures.length > 0 && output.failures.every((f) => f.reproduce.includes('--nemesis proxy')));
      // The registry did answer ready again after the faults: its counterexample fails its own clauses, not that one.
      assert.deepEqual(
        output.evidence.filter((e) => e.clause === 'ops-ready').map((e) => e.status),
        ['pass'],
      );
      const sweptClean = doc.sweep !== null && doc.sweep.violations.length === 0;
      assert.deepEqual(
        output.evidence.filter((e) => e.clause === 'failure-indeterminate').map((e) => e.status),
        [sweptClean ? 'pass' : 'fail'],
      );
    });
  }

  it('fails a registry that acknowledges a settlement it then loses', async () => {
    const { output } = await stageAgainst(
      'lost-settlement',
      await startEmbeddedReference({ store: losingSettlements(await openReferenceStore('memory')) }),
      { ...HUNT, suites: ['idempotent-settlement'] },
    );
    assert.equal(output.record.status, 'failed', output.record.reasons.join('; '));
    // Not asserted here: that the stage's final sweep sees it too. This registry makes every other settlement
    // it is asked for, and the suite's clients settle the same actions, so a later settlement may release a
    // lost one before the sweep reads the routes, and whether one does depends on where the faults fell.
    // call-outcomes.test.ts proves the sweep finds a lost settlement whose route stays held.
  });
});
