// The aip-fleet-slo-v1 dataset seeded into a PostgreSQL store through its
// batch operation, for bench:pg and bench:pg-ab: a rejected item stops the
// benchmark rather than measure a smaller fleet.
import { sha256Hex } from '../../contract/digest.ts';
import { scaleDataset } from '../../load/lib/dataset.js';
import type { RegistryStore } from '../../reference/store/registry-store.ts';

export interface SeededTenant {
  id: string;
  capabilities: string[];
}

export async function seedScaleDataset(store: RegistryStore): Promise<{ counts: unknown; tenants: SeededTenant[] }> {
  const data = scaleDataset({ runId: 'bench', sha256Hex, leaseUntilMs: Date.now() + 24 * 3_600_000 });
  for (const items of data.batches(1000)) {
    const { results } = await store.applyBatch(items);
    const rejected = results.find((r) => r.outcome === 'rejected');
    if (rejected) throw new Error(`seed item rejected: ${JSON.stringify(rejected)}`);
  }
  const tenants = Array.from({ length: data.dimensions.tenants }, (_, k) => ({
    id: data.ids.tenant(k + 1),
    capabilities: data.tenantCapabilities(k + 1),
  }));
  return { counts: data.counts, tenants };
}
