// Sustained lease churn always has replicas to send: iterations past the
// end of its pool start it over at higher health revisions, and a dataset
// that leaves it no replica at all is refused before the run starts. The
// parts of a distributed run share each pool out without overlap.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { churnSlice, shareOf } from '../lib/fleet-facts.js';
import { ContractError, loadScaleContract, resolveProfile } from '../runner/scale-contract.ts';

test('churn iterations past the end of the pool start it over, each round two revisions higher', () => {
  const pool = ['a', 'b', 'c', 'd', 'e'];
  const started = 1_800_000_000_000;
  const ids = (n: number) => churnSlice(pool, n, 2, started).map((r) => `${r.id}@${r.revision - started}`);
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6].map(ids), [
    ['a@0', 'b@0'],
    ['c@0', 'd@0'],
    ['e@0'],
    ['a@2', 'b@2'],
    ['c@2', 'd@2'],
    ['e@2'],
    ['a@4', 'b@4'],
  ]);
  assert.ok(
    [...Array(200).keys()].every((n) => churnSlice(pool, n, 50, started).length === 5),
    'a batch wider than the pool takes the whole pool every time',
  );
  assert.deepEqual(churnSlice([], 0, 2, started), []);
  const later = churnSlice(pool, 0, 2, started + 1000)[0]!.revision;
  assert.ok(later > churnSlice(pool, 999, 2, started)[0]!.revision, 'a part run again later starts above what it sent before');
});

test('the parts of a distributed run share a pool out between them, every replica to one part', () => {
  const pool = [...Array(11).keys()].map((i) => `r${i}`);
  for (const bounds of [
    [0, 1 / 2, 1],
    [0, 1 / 3, 2 / 3, 1],
    [0, 0.25, 0.5, 0.75, 1],
  ]) {
    const shares = bounds.slice(1).map((to, k) => shareOf(pool, [bounds[k]!, to]));
    assert.deepEqual(shares.flat(), pool, `segments ${bounds.join(',')}`);
  }
  assert.deepEqual(shareOf(pool, [0, 1]), pool);
});

test('a sustained profile whose churn pool would be empty cannot start; one with a pool can', () => {
  const contract = loadScaleContract();
  assert.throws(
    () => resolveProfile(contract, 'sustained', ['tenants=50']),
    (err: unknown) =>
      err instanceof ContractError &&
      /sustained_lease_churn has no replica to churn: .* 50 of 50 tenants route.*--set tenants=51/.test(err.message),
  );
  assert.throws(
    () => resolveProfile(contract, 'smoke', ['sustained_routes.routing_tenants=4']),
    /sustained_lease_churn has no replica to churn/,
  );
  assert.doesNotThrow(() => resolveProfile(contract, 'sustained', ['tenants=51']));
  assert.doesNotThrow(() => resolveProfile(contract, 'sustained', ['tenants=50', 'sustained_routes.routing_tenants=49']));
  assert.doesNotThrow(
    () => resolveProfile(contract, 'sustained', ['tenants=50'], undefined, ['sustained_routes']),
    'a partial run without the churn needs no pool',
  );
});
