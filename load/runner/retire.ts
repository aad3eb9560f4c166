// Retiring a run's data after the audit (DESIGN: records are never deleted,
// a run retires what it created): every connector type of the run is
// disabled, which takes its capabilities out of every catalog and route,
// and every replica still up goes offline with a health report. It judges
// nothing: a retirement that stops (the target went away) says so in the
// report beside the audit, which it never replaces.
import type { BatchItem } from '../../contract/records.ts';
import { LIMIT_MINIMUMS } from '../../contract/records.ts';
import { jsonBody } from '../../client/http-transport.ts';
import { bodyLimitOf, bySize } from '../lib/batches.js';
import type { ReplicaHealth } from './audit.ts';
import { planTransport } from './plan-transport.ts';
import type { RunPlan } from './run-plan.ts';

export interface Retirement {
  types_disabled: number;
  replicas_offline: number;
  rejected: number;
  /** Why retirement stopped before sending every item, when it did: the run's records not yet retired remain on the target. */
  error?: string;
}

/** At most the contract's smallest legal max_batch_items per request, within the body limit the target declared. */
const BATCH = LIMIT_MINIMUMS.max_batch_items;

export async function retireRun(plan: RunPlan, replicas: ReplicaHealth[]): Promise<Retirement> {
  const transport = planTransport(plan, 4);
  const now = new Date().toISOString();
  const items: BatchItem[] = [];
  for (let t = 1; t <= plan.profile.dataset.connector_types; t++) {
    items.push({ op: 'set_connector_type_enabled', id: `ctype_${plan.run_id}_${String(t).padStart(6, '0')}`, enabled: false });
  }
  const typeCount = items.length;
  for (const r of replicas) {
    if (r.status !== 'offline')
      items.push({
        op: 'report_health',
        id: r.id,
        report: { health_revision: r.health_revision + 1, status: 'offline', lease_expires_at: now, capacity: r.capacity },
      });
  }
  const chunks = bySize(items, bodyLimitOf(plan), BATCH);
  let rejected = 0;
  let sent = 0;
  let error: string | undefined;
  try {
    for (const chunk of chunks) {
      const res = await transport.operation('applyBatch', {
        body: { items: chunk },
        as: { roles: ['registry:admin', 'registry:lifecycle'] },
      });
      const body = jsonBody(res) as { results?: { outcome: string }[] } | undefined;
      rejected += res.status === 200 ? (body?.results ?? []).filter((r) => r.outcome === 'rejected').length : chunk.length;
      sent += chunk.length;
    }
  } catch (err) {
    error = `${items.length - sent} of ${items.length} retirement writes not sent: ${(err as Error).message}`;
  } finally {
    await transport.close();
  }
  return { types_disabled: typeCount, replicas_offline: items.length - typeCount, rejected, ...(error ? { error } : {}) };
}
