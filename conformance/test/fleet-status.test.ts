// Fleet status against the counts a known set of changes implies, disabling
// included (spec.md decision 22): the reference passes, and a registry that
// counts only enabled connector types fails.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FleetStatus } from '../../contract/records.ts';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import type { RegistryStore } from '../../reference/store/registry-store.ts';
import { runConformance } from '../runner/run.ts';
import { startReferenceTarget } from './reference-target.ts';
import { overriding } from './store-overrides.ts';

const CASES = ['fleet/status-follows-disabling-and-enabling', 'fleet/status-counts-each-state-exactly'];

/** A memory store whose fleet status leaves out the connector types disabled through it. */
function countingEnabledTypesOnly(): RegistryStore {
  const inner = new MemoryStore();
  const disabled = new Set<string>();
  return overriding(inner, {
    async setConnectorTypeEnabled(id: string, enabled: boolean) {
      const result = await inner.setConnectorTypeEnabled(id, enabled);
      if (enabled) disabled.delete(id);
      else disabled.add(id);
      return result;
    },
    async fleetStatus(): Promise<FleetStatus> {
      const status = await inner.fleetStatus();
      return { ...status, connector_types: status.connector_types - disabled.size };
    },
  });
}

async function statuses(store?: RegistryStore): Promise<string[]> {
  const target = await startReferenceTarget({ silent: true, ...(store ? { store } : {}) });
  try {
    const config = target.config({ cases: CASES, categories: [] });
    const outcome = await runConformance({ config, signingKey: target.key, writeReports: false });
    assert.ok(outcome.result, outcome.error);
    return outcome.result.cases.map((c) => `${c.id} ${c.status}: ${c.message ?? ''}`);
  } finally {
    await target.close();
  }
}

describe('fleet status after disabling and enabling', () => {
  it('the reference passes', async () => {
    for (const status of await statuses()) assert.match(status, / pass: /);
  });
  it('a registry counting only enabled connector types fails the disabling case', async () => {
    const got = await statuses(countingEnabledTypesOnly());
    assert.match(got.find((s) => s.startsWith(CASES[0]!)) ?? '', / fail: .*connector_types moved by -1, not 0/, JSON.stringify(got));
  });
});
