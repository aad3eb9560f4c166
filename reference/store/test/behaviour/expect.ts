// Assertions shared by the behaviour suite.
import assert from 'node:assert/strict';
import type { ErrorCode } from '../../../../contract/errors.ts';
import { RegistryError } from '../../../../contract/registry-error.ts';
import type { Fleet, World } from './world.ts';

/** Awaits `promise` and asserts it fails with a RegistryError of `code`. */
export async function rejectsWith(promise: Promise<unknown>, code: ErrorCode, details?: Record<string, unknown>): Promise<RegistryError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(RegistryError.is(err), `expected RegistryError ${code}, got ${String(err)}`);
    assert.equal(err.code, code, `expected ${code}, got ${err.code}: ${err.message}`);
    if (details) for (const [k, v] of Object.entries(details)) assert.deepEqual(err.details?.[k], v, `details.${k}`);
    return err;
  }
  assert.fail(`expected ${code}, but the call succeeded`);
}

/**
 * Everything a caller can observe about a fleet: its records, replica state,
 * routes, counters, the fleet aggregate and the internal catalog. Two equal
 * snapshots mean a call changed nothing ([error-changes-nothing]).
 */
export async function snapshot(w: World, fleets: Fleet[], actions: Array<{ tenant: string; action: string }> = []): Promise<unknown> {
  const s = w.store;
  const out: Record<string, unknown> = {
    revision: await s.catalogRevision(),
    fleet: await s.fleetStatus(),
    catalog: await s.queryCatalog({ limit: 200 }, { tenant_id: null, allow_unbound: true }),
  };
  for (const f of fleets) {
    out[f.typeId] = {
      type: await s.getConnectorType(f.typeId),
      version: await s.getVersion(f.version.id),
      instance: await s.getInstance(f.instance.id),
      bindings: await Promise.all(f.capabilityIds.map((c) => s.getBinding(f.instance.tenant_id, c, f.instance.id))),
      replicas: await Promise.all(f.replicas.map((r) => s.getReplica(r.id))),
      tenantCounter: await s.getAdmissionCounter('tenant', f.instance.tenant_id),
      retryCounter: await s.getAdmissionCounter('tenant_retry', f.instance.tenant_id),
      instanceCounter: await s.getAdmissionCounter('instance', f.instance.id),
    };
  }
  for (const { tenant, action } of actions) out[`route:${action}`] = await s.route(tenant, action);
  return out;
}

export async function assertUnchangedBy(
  w: World,
  fleets: Fleet[],
  call: () => Promise<unknown>,
  code: ErrorCode,
  actions: Array<{ tenant: string; action: string }> = [],
): Promise<void> {
  const before = await snapshot(w, fleets, actions);
  await rejectsWith(call(), code);
  assert.deepEqual(await snapshot(w, fleets, actions), before, 'a refused call changed state');
}
