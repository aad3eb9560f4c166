// Sustained lease churn always has replicas to send: iterations past the
// end of its pool start it over at higher health revisions, and a dataset
// that leaves it no replica at all is refused before the run starts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { churnSlice } from '../lib/fleet-facts.js';
import { ContractError, loadScaleContract, resolveProfile } from '../runner/scale-contract.ts';

test('churn iterations past the end of the pool start it over, each round two revisions higher', () => {
  const pool = ['a', 'b', 'c', 'd', 'e'];
  const ids = (n: number) => churnSlice(pool, n, 2).map((r) => `${r.id}@${r.revision}`);
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6].map(ids), [
    ['a@1', 'b@1'],
    ['c@1', 'd@1'],
    ['e@1'],
    ['a@3', 'b@3'],
    ['c@3', 'd@3'],
    ['e@3'],
    ['a@5', 'b@5'],
  ]);
  assert.ok(
    [...Array(200).keys()].every((n) => churnSlice(pool, n, 50).length === 5),
    'a batch wider than the pool takes the whole pool every time',
  );
  assert.deepEqual(churnSlice([], 0, 2), []);
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
