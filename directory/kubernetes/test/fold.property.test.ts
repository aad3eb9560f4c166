// Properties of folding: the snapshot never depends on the order slices
// arrive in, and a conflicting duplicate is always invalid, never resolved by
// whichever copy came first. FC_SEED (and FC_PATH) replay a run; the seed is
// printed. FC_RUNS sets runs per property.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { DirectoryError } from '../../outcome.ts';
import { referenceTarget } from '../../test/kit/fixtures.ts';
import { KubernetesDirectory } from '../directory.ts';
import { foldInstances } from '../fold.ts';
import { normalizeSlice, type NormalizedSlice } from '../normalize.ts';
import { FixtureExecutor } from './support/fixture-executor.ts';
import { sliceObject, testBinding, type PodEndpoint } from './support/objects.ts';
import { listReplies } from './support/replies.ts';

const b = testBinding();
const seed = process.env['FC_SEED'] !== undefined ? Number(process.env['FC_SEED']) : Date.now() % 2_147_483_647;
const runs = Number(process.env['FC_RUNS'] ?? 200);
const params = { seed, numRuns: runs, ...(process.env['FC_PATH'] ? { path: process.env['FC_PATH'] } : {}) };
console.log(`fold properties: FC_SEED=${seed} FC_RUNS=${runs}`);

interface Pod {
  uid: string;
  addresses: string[];
  ready: boolean;
  serving: boolean;
  terminating: boolean;
  zone: string | undefined;
}

/** Pods with disjoint addresses, so any duplicate of them is a pure reshard. */
const pods = fc.uniqueArray(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 8 }).chain((ids) =>
  fc.tuple(
    ...ids.map((id) =>
      fc.record({
        uid: fc.constant(`pod-${id}`),
        addresses: fc.subarray([`10.${id}.0.1`, `10.${id}.0.2`, `10.${id}.0.3`], { minLength: 1 }),
        ready: fc.boolean(),
        serving: fc.boolean(),
        terminating: fc.boolean(),
        zone: fc.option(fc.constantFrom('zone-a', 'zone-b'), { nil: undefined }),
      }),
    ),
  ),
);

const toEndpoint = (p: Pod, addresses = p.addresses): PodEndpoint => ({
  uid: p.uid,
  addresses,
  conditions: { ready: p.ready, serving: p.serving, terminating: p.terminating },
  ...(p.zone !== undefined ? { zone: p.zone } : {}),
});

/** Spreads every pod over 1..3 slices, each copy with a non-empty subset of its addresses. */
function resharded(list: Pod[]) {
  return fc
    .tuple(...list.map((p) => fc.array(fc.tuple(fc.nat(2), fc.subarray(p.addresses, { minLength: 1 })), { minLength: 1, maxLength: 3 })))
    .map((placements) => {
      const slices: PodEndpoint[][] = [[], [], []];
      placements.forEach((copies, i) => {
        const p = list[i]!;
        // The full address set appears at least once, so the union is known.
        slices[copies[0]![0]]!.push(toEndpoint(p));
        for (const [slot, addresses] of copies.slice(1)) slices[slot]!.push(toEndpoint(p, addresses));
      });
      return slices.map((endpoints, i) => normalizeSlice(sliceObject(b, { name: `alpha-${i}`, endpoints }), b, false));
    });
}

const fingerprint = (slices: NormalizedSlice[]) => JSON.stringify(foldInstances(slices, b));

test('the folded snapshot does not depend on slice arrival order', () => {
  fc.assert(
    fc.property(
      pods
        .chain((list) => fc.tuple(fc.constant(list), resharded(list)))
        .chain(([list, slices]) =>
          fc.tuple(fc.constant(list), fc.constant(slices), fc.shuffledSubarray(slices, { minLength: slices.length })),
        ),
      ([list, slices, shuffled]) => {
        const folded = foldInstances(slices, b);
        assert.equal(fingerprint(shuffled), JSON.stringify(folded));
        // Folding is exact: one instance per pod, with all of its addresses.
        assert.deepEqual(
          folded.map((i) => i.id),
          list.map((p) => p.uid).sort(),
        );
        for (const p of list) {
          const inst = folded.find((i) => i.id === p.uid)!;
          assert.deepEqual(
            inst.endpoints.map((e) => e.address),
            [...p.addresses].sort(),
          );
          assert.deepEqual([inst.ready, inst.serving, inst.terminating, inst.zone], [p.ready, p.serving, p.terminating, p.zone ?? null]);
        }
      },
    ),
    params,
  );
});

test('a directory snapshot does not depend on the order of the listed slices', async () => {
  const asList = (list: Pod[], order: number[]) => {
    const spread: PodEndpoint[][] = [[], [], []];
    list.forEach((p, i) => {
      spread[i % 3]!.push(toEndpoint(p));
      // Every other pod is also still present in the next slice (a reshard in progress).
      if (i % 2 === 0) spread[(i + 1) % 3]!.push(toEndpoint(p));
    });
    const slices = spread.map((endpoints, i) => sliceObject(b, { name: `alpha-${i}`, endpoints }));
    return order.map((i) => slices[i]!);
  };
  const snapshotOf = async (slices: Record<string, unknown>[]) =>
    JSON.stringify(
      await new KubernetesDirectory({ bindings: [b], executor: FixtureExecutor.script(listReplies(b, { slices })) }).snapshot(
        referenceTarget(),
      ),
    );
  await fc.assert(
    fc.asyncProperty(pods, fc.shuffledSubarray([0, 1, 2], { minLength: 3 }), async (list, order) => {
      assert.equal(await snapshotOf(asList(list, order)), await snapshotOf(asList(list, [0, 1, 2])));
    }),
    { ...params, numRuns: Math.min(runs, 50) },
  );
});

type Conflict = 'ready' | 'serving' | 'terminating' | 'zone' | 'address_owner';

test('any conflicting duplicate is invalid in every order, never first-wins', () => {
  fc.assert(
    fc.property(
      pods,
      fc.nat(),
      fc.constantFrom<Conflict>('ready', 'serving', 'terminating', 'zone', 'address_owner'),
      fc.nat(2),
      fc.boolean(),
      (list, pick, conflict, slot, conflictFirst) => {
        const victim = list[pick % list.length]!;
        let duplicate: PodEndpoint;
        if (conflict === 'address_owner') {
          duplicate = { ...toEndpoint(victim), uid: `${victim.uid}-impostor` };
        } else if (conflict === 'zone') {
          duplicate = { ...toEndpoint(victim), zone: victim.zone === 'zone-a' ? 'zone-b' : 'zone-a' };
        } else {
          duplicate = toEndpoint({ ...victim, [conflict]: !victim[conflict] });
        }
        const base = list.map((p) => toEndpoint(p));
        const spread: PodEndpoint[][] = [[], [], []];
        base.forEach((e, i) => spread[i % 3]!.push(e));
        if (conflictFirst) spread[slot]!.unshift(duplicate);
        else spread[slot]!.push(duplicate);
        const slices = spread.map((endpoints, i) => normalizeSlice(sliceObject(b, { name: `alpha-${i}`, endpoints }), b, false));
        for (const order of [slices, [...slices].reverse()]) {
          assert.throws(
            () => foldInstances(order, b),
            (e) => DirectoryError.is(e) && e.outcome === 'invalid' && e.reason === 'invalid_input',
          );
        }
      },
    ),
    params,
  );
});
