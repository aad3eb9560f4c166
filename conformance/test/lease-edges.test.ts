// Lease maintenance on both sides of `lease ≤ now`: the reference passes on
// memory and PostgreSQL (the self-check), and a store whose maintenance runs
// a few seconds ahead (taking leases that end soon) or behind (leaving leases
// just past) fails.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import type { RegistryStore } from '../../reference/store/registry-store.ts';
import { runConformance } from '../runner/run.ts';
import { startReferenceTarget } from './reference-target.ts';
import { overriding } from './store-overrides.ts';

const CASE = 'leases/lease-ending-seconds-ahead-is-untouched';

/** A memory store whose lease maintenance alone reads a clock `offMs` off; everything else, fleet status's observed_at included, reads the true one. */
function maintenanceClockOff(offMs: number): RegistryStore {
  let off = 0;
  const inner = new MemoryStore({ clock: () => Date.now() + off });
  return overriding(inner, {
    expireLeases(limit: number) {
      off = offMs;
      try {
        return inner.expireLeases(limit);
      } finally {
        off = 0;
      }
    },
  });
}

async function statusWithMaintenanceOff(offMs: number): Promise<string> {
  const target = await startReferenceTarget({ silent: true, store: maintenanceClockOff(offMs) });
  try {
    const outcome = await runConformance({
      config: target.config({ cases: [CASE], categories: [] }),
      signingKey: target.key,
      writeReports: false,
    });
    assert.ok(outcome.result, outcome.error);
    const [c] = outcome.result.cases;
    return `${c?.status}: ${c?.message ?? ''}`;
  } finally {
    await target.close();
  }
}

describe('lease maintenance at the edge of lease ≤ now', () => {
  it('a store on the true clock passes', async () => {
    assert.match(await statusWithMaintenanceOff(0), /^pass/);
  });
  it('maintenance taking leases that end within 5 s fails', async () => {
    assert.match(await statusWithMaintenanceOff(5000), /^fail: lease maintenance took offline/);
  });
  it('maintenance leaving leases that ended less than 5 s ago fails', async () => {
    assert.match(await statusWithMaintenanceOff(-5000), /^fail: .*stale replicas are still/);
  });
});
