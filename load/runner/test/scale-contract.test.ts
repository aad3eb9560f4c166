// The scale contract document and profile resolution.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ContractError, loadScaleContract, parseDuration, resolveProfile } from '../scale-contract.ts';

test('the contract matches its schema and carries the anchor thresholds in aip-fleet-slo-v1', () => {
  const contract = loadScaleContract();
  const aip = contract.profiles['aip-fleet-slo-v1']!;
  assert.deepEqual(
    aip.phases.map((p) => p.name),
    [
      'seed',
      'version_rollout',
      'noisy_tenant',
      'retry_storm',
      'catalog_walk',
      'parallel_catalog',
      'concurrent_routes',
      'retry_rotation',
      'lease_churn',
    ],
  );
  const bySource = Object.fromEntries(aip.thresholds.filter((t) => t.source).map((t) => [t.source, t.expression]));
  assert.deepEqual(bySource, {
    MAX_SEED_MILLIS: 'max<=60000',
    MAX_CATALOG_P99_MICROS: 'p(99)<=2000',
    MAX_ROUTE_P99_MICROS: 'p(99)<=3000',
    MIN_ROUTE_THROUGHPUT_PER_SECOND: 'min>=100',
  });
  assert.equal(aip.dataset.instances * aip.dataset.bindings_per_instance, 100000);
  assert.ok(['smoke', 'sustained'].every((p) => p in contract.profiles));
});

test('--set overrides dimensions and phase parameters; bad overrides are refused', () => {
  const contract = loadScaleContract();
  const p = resolveProfile(
    contract,
    'aip-fleet-slo-v1',
    ['instances=2000', 'connector_types=200', 'concurrent_routes.routes=50', 'lease_churn.budget_s=5'],
    30,
  );
  assert.equal(p.dataset.instances, 2000);
  assert.equal(p.phases.find((x) => x.name === 'concurrent_routes')!.params!['routes'], 50);
  assert.equal(p.phases.find((x) => x.name === 'lease_churn')!.budget_s, 5);
  assert.equal(p.duration_s, 30);
  assert.equal(contract.profiles['aip-fleet-slo-v1']!.dataset.instances, 10000, 'the contract itself is untouched');
  assert.throws(() => resolveProfile(contract, 'aip-fleet-slo-v1', ['replicas=3']), ContractError);
  assert.throws(() => resolveProfile(contract, 'aip-fleet-slo-v1', ['tenants=1.5']), ContractError);
  assert.throws(() => resolveProfile(contract, 'aip-fleet-slo-v1', ['noisy_tenant.nope=1']), ContractError);
  assert.throws(() => resolveProfile(contract, 'aip-fleet-slo-v1', ['instances=10']), /instances must be at least connector_types/);
  assert.throws(() => resolveProfile(contract, 'nope'), /unknown profile/);
  const partial = resolveProfile(contract, 'sustained', [], undefined, ['sustained_routes', 'heartbeats']);
  assert.deepEqual(
    partial.phases.map((x) => x.name),
    ['seed', 'sustained_routes', 'heartbeats'],
  );
  assert.deepEqual(
    partial.thresholds.map((x) => x.id),
    ['seed_time', 'route_p99', 'settle_p99', 'unexpected_responses', 'dropped_iterations'],
    'thresholds of dropped phases go',
  );
  assert.throws(() => resolveProfile(contract, 'smoke', [], undefined, ['nope']), /no phase nope/);
  assert.equal(parseDuration('5m'), 300);
  assert.throws(() => parseDuration('soon'), ContractError);
});

test('--set threshold.id sets an operator’s own bound, recorded as an override; unknown ids and bad expressions are refused', () => {
  const contract = loadScaleContract();
  const p = resolveProfile(contract, 'breakpoint', ['threshold.route_p99=p(99)<=200']);
  assert.equal(p.thresholds.find((t) => t.id === 'route_p99')!.expression, 'p(99)<=200');
  assert.equal(p.thresholds.find((t) => t.id === 'settle_p99')!.expression, 'p(99)<=50', 'the other thresholds keep the contract’s bounds');
  assert.deepEqual(p.overrides, ['threshold.route_p99=p(99)<=200'], 'a run with its own bound is not a qualification');
  assert.equal(
    contract.profiles['breakpoint']!.thresholds.find((t) => t.id === 'route_p99')!.expression,
    'p(99)<=50',
    'the contract itself is untouched',
  );
  assert.throws(() => resolveProfile(contract, 'breakpoint', ['threshold.nope=count==0']), /has no threshold nope \(seed_time, route_p99/);
  assert.throws(
    () => resolveProfile(contract, 'breakpoint', ['threshold.route_p99=fast']),
    /invalid threshold expression "fast"; write it as k6 does/,
  );
});
