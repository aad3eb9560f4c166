// The load bench:pg and bench:pg-ab both drive: each client resolves and
// settles one fresh action after another until the time is up, walking
// every tenant and capability of the dataset in turn, so that the rounds of
// both benchmarks put the same work on the server.
import { performance } from 'node:perf_hooks';
import type { RegistryStore } from '../../reference/store/registry-store.ts';
import type { SeededTenant } from './pg-dataset.ts';

export interface PairLoad {
  store: RegistryStore;
  tenants: readonly SeededTenant[];
  clients: number;
  ms: number;
  /** Makes this round's action ids its own. */
  tag: string;
  /** Called with each resolve's latency in milliseconds. */
  onResolve?: (ms: number) => void;
}

/** The number of resolve+settle pairs done. */
export async function drivePairs(o: PairLoad): Promise<number> {
  let pairs = 0;
  const end = performance.now() + o.ms;
  await Promise.all(
    Array.from({ length: o.clients }, async (_, c) => {
      for (let n = 0; performance.now() < end; n++) {
        const t = o.tenants[(n * o.clients + c) % o.tenants.length]!;
        const req = { action_id: `act-${o.tag}-${c}-${n}`, capability_id: t.capabilities[n % t.capabilities.length]! };
        const t0 = performance.now();
        const view = await o.store.resolve(t.id, req);
        o.onResolve?.(performance.now() - t0);
        await o.store.settle(t.id, req.action_id, view.assignment, 'completed');
        pairs++;
      }
    }),
  );
  return pairs;
}
