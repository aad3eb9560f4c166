// The provider-neutral conformance suite: the behaviour every instance
// directory owes its consumers, run against the fake and against each real
// provider through a small harness that can drive the provider's source.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { InstanceChange } from '../../change.ts';
import type { InstanceDirectory } from '../../directory.ts';
import type { Outcome, OutcomeCause } from '../../outcome.ts';
import { snapshotsEqual, type InstanceSnapshot } from '../../snapshot.ts';
import type { DirectoryTarget } from '../../target.ts';
import { rejectsOutcome } from './assert-outcome.ts';

export interface ConformanceHarness {
  directory: InstanceDirectory;
  /** Makes the source produce `fixture.change` on every live observation. */
  emit(): Promise<void>;
  /** Makes the source end every live observation with `fixture.terminal`. */
  terminate(): Promise<void>;
  dispose(): Promise<void>;
}

export interface ConformanceFixture {
  target: DirectoryTarget;
  /** A valid target with no binding. */
  unboundTarget: DirectoryTarget;
  initial: InstanceSnapshot;
  /** The change `emit()` produces, as the first change of an observation. */
  change: InstanceChange;
  terminal: { outcome: Outcome; reason: OutcomeCause | null };
}

async function withHarness(open: () => Promise<ConformanceHarness>, body: (h: ConformanceHarness) => Promise<void>): Promise<void> {
  const harness = await open();
  try {
    await body(harness);
  } finally {
    await harness.dispose();
  }
}

export function describeDirectoryConformance(name: string, open: () => Promise<ConformanceHarness>, fixture: ConformanceFixture): void {
  const run = (title: string, body: (h: ConformanceHarness) => Promise<void>) => test(title, () => withHarness(open, body));

  describe(`instance directory conformance: ${name}`, () => {
    run('advertises snapshot and observe', async ({ directory }) => {
      const caps = directory.capabilities();
      assert.ok(caps.supports('snapshot') && caps.supports('observe'));
    });

    run('snapshot equals the fixture and cannot be altered through the returned value', async ({ directory }) => {
      const first = await directory.snapshot(fixture.target);
      assert.ok(snapshotsEqual(first, fixture.initial), 'snapshot equals fixture');
      assert.throws(() => (first.instances as unknown[]).pop(), TypeError);
      assert.ok(snapshotsEqual(await directory.snapshot(fixture.target), fixture.initial), 'a fresh read is unaffected');
    });

    run('an unbound target is missing', async ({ directory }) => {
      await rejectsOutcome(directory.snapshot(fixture.unboundTarget), 'missing');
      await rejectsOutcome(directory.observe(fixture.unboundTarget), 'missing');
    });

    run('observe returns the fixture as its initial snapshot', async ({ directory }) => {
      const observation = await directory.observe(fixture.target);
      assert.ok(snapshotsEqual(observation.initial, fixture.initial));
      observation.watch.close();
    });

    run('a canceled next is canceled and a concurrent next is invalid', async ({ directory }) => {
      const { watch } = await directory.observe(fixture.target);
      const controller = new AbortController();
      const pending = watch.next({ signal: controller.signal });
      await rejectsOutcome(watch.next(), 'invalid');
      controller.abort();
      await rejectsOutcome(pending, 'canceled');
      watch.close();
    });

    run('an emitted change arrives exactly', async (h) => {
      const { watch } = await h.directory.observe(fixture.target);
      await h.emit();
      assert.deepEqual(await watch.next(), fixture.change);
      watch.close();
    });

    run('a terminal arrives typed, and the target can be observed again', async (h) => {
      const { watch } = await h.directory.observe(fixture.target);
      await h.terminate();
      await rejectsOutcome(watch.next(), fixture.terminal.outcome, fixture.terminal.reason);
      const again = await h.directory.observe(fixture.target);
      assert.ok(snapshotsEqual(again.initial, fixture.initial));
      again.watch.close();
    });

    run('closing the directory unblocks a pending next with closed; closing twice is fine', async ({ directory }) => {
      const { watch } = await directory.observe(fixture.target);
      const pending = watch.next();
      await directory.close();
      await rejectsOutcome(pending, 'closed');
      await directory.close();
      await rejectsOutcome(directory.snapshot(fixture.target), 'closed');
    });
  });
}
