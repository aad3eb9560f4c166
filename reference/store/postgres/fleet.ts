// Lease maintenance and fleet status on PostgreSQL (spec.md §15–§16).
import type { ReferenceChoices } from '../../domain/choices.ts';
import type pg from 'pg';
import { SCOPE_KINDS } from '../../../contract/errors.ts';
import type { FleetStatus, LeaseExpiryResult, RegistryLimits, ScopeReservation } from '../../../contract/records.ts';
import { counterKey } from '../../domain/admission.ts';
import { compareBytes } from '../../domain/ordering.ts';
import { invalid } from '../../../contract/registry-error.ts';
import { toTimestamp } from '../../domain/time.ts';
import { read, run, transaction } from './database.ts';
import { sql } from './sql.ts';

const kindRank = (kind: string) => SCOPE_KINDS.indexOf(kind as (typeof SCOPE_KINDS)[number]);

/** [lease-expiry-bounded], [lease-expiry-effect], [lease-expiry-keeps-routes]. */
export async function expireLeases(
  pool: pg.Pool,
  limit: number,
  nowMs: number,
  limits: RegistryLimits,
  expiredLease: ReferenceChoices['expiredLease'],
): Promise<LeaseExpiryResult> {
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > limits.max_expiry_batch) {
    throw invalid(`limit must be an integer between 1 and ${limits.max_expiry_batch}`);
  }
  return transaction(pool, async (db) => {
    const replicaIds = (await run<{ replica_id: string }>(db, sql('expire-select-replicas'), [nowMs, limit])).map((r) => r.replica_id);
    if (replicaIds.length === 0) return { expired: 0 };
    const routes = await run<{ action_id: string; reservation_scopes: ScopeReservation[] }>(db, sql('expire-reserved-routes'), [
      replicaIds,
    ]);
    const release = new Map<string, { kind: string; key: string; n: number }>();
    for (const route of routes) {
      for (const s of route.reservation_scopes) {
        const k = counterKey(s.kind, s.key);
        const entry = release.get(k);
        if (entry) entry.n += 1;
        else release.set(k, { kind: s.kind, key: s.key, n: 1 });
      }
    }
    // The order every transaction takes counters in: scope kind order, then key.
    const ordered = [...release.values()].sort((a, b) => kindRank(a.kind) - kindRank(b.kind) || compareBytes(a.key, b.key));
    await run(db, sql('expire-release'), [
      ordered.map((c) => c.kind),
      ordered.map((c) => c.key),
      ordered.map((c) => c.n),
      routes.map((r) => r.action_id),
      replicaIds,
      nowMs,
      expiredLease === 'now',
    ]);
    return { expired: replicaIds.length };
  });
}

export async function fleetStatus(pool: pg.Pool, nowMs: number): Promise<FleetStatus> {
  const [row] = await read<Omit<FleetStatus, 'observed_at'>>(pool, sql('fleet-status'), [nowMs]);
  return { ...row!, observed_at: toTimestamp(nowMs) };
}
