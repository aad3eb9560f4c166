// Records are never deleted (spec.md [records-never-deleted]), so a run
// cleans up by retiring what it created: settle the routes it still holds,
// take its replicas offline, disable its bindings, instances and types. The
// client reports every successful write here, so no case has to remember.
import type { BatchItem, BatchResult, ConnectorInstance, CapabilityBinding, RouteView } from '../../contract/records.ts';
import type { Reply, RegistryClient } from './client.ts';
import type { ServerClock } from './clock.ts';
import type { CallerSummary } from './exchange.ts';
import type { OperationId } from '../../contract/operations.ts';
import { inPool } from './in-pool.ts';

export type RetiredKind = 'route' | 'replica' | 'binding' | 'instance' | 'connector_type';

export interface RetirementFailure {
  kind: RetiredKind;
  id: string;
  message: string;
}

export interface RetirementOutcome {
  status: 'retired' | 'incomplete' | 'not_run';
  /** Per kind: how many records the run created, and how many could not be retired. */
  counts: Record<RetiredKind, { created: number; failed: number }>;
  failures: RetirementFailure[];
  duration_ms: number;
}

/** Records retired at once. */
export const RETIREMENT_WIDTH = 8;

const KINDS: RetiredKind[] = ['route', 'replica', 'binding', 'instance', 'connector_type'];

function bindingKey(b: { tenant_id: string; capability_id: string; instance_id: string }): string {
  return JSON.stringify([b.tenant_id, b.capability_id, b.instance_id]);
}

export class RetirementLedger {
  readonly types = new Set<string>();
  readonly instances = new Set<string>();
  readonly bindings = new Set<string>();
  readonly replicas = new Set<string>();
  /** action id → tenant. */
  readonly routes = new Map<string, string>();

  /** The client's write observer. */
  readonly observe = (
    op: OperationId,
    params: Record<string, string>,
    body: unknown,
    _caller: CallerSummary | null,
    reply: Reply,
  ): void => {
    switch (op) {
      case 'putConnectorType':
      case 'setConnectorTypeEnabled':
        this.types.add(params['type_id']!);
        break;
      case 'putInstance':
        this.instances.add(params['instance_id']!);
        break;
      case 'putBinding':
        this.bindings.add(bindingKey(params as never));
        break;
      case 'provisionReplica':
      case 'reportHealth':
        this.replicas.add(params['replica_id']!);
        break;
      case 'resolveRoute': {
        const a = (reply.json as RouteView).assignment;
        this.routes.set(a.action_id, a.tenant_id);
        break;
      }
      case 'applyBatch':
        this.observeBatch((body as { items?: BatchItem[] } | undefined)?.items ?? [], reply.json as BatchResult);
        break;
      default:
        break;
    }
  };

  private observeBatch(items: BatchItem[], result: BatchResult): void {
    for (const r of result.results ?? []) {
      if (r.outcome === 'rejected') continue;
      const item = items[r.index];
      if (!item) continue;
      if (item.op === 'put_connector_type') this.types.add(item.record.id);
      else if (item.op === 'set_connector_type_enabled') this.types.add(item.id);
      else if (item.op === 'put_instance') this.instances.add(item.record.id);
      else if (item.op === 'put_binding') this.bindings.add(bindingKey(item.record));
      else if (item.op === 'provision_replica') this.replicas.add(item.record.id);
      else if (item.op === 'report_health') this.replicas.add(item.id);
    }
  }
}

export interface RetirementClients {
  admin: RegistryClient;
  lifecycle: RegistryClient;
  reader: RegistryClient;
  dispatch(tenant: string): RegistryClient;
}

/** What a record not retired says once the retirement's budget is spent. */
export const RETIREMENT_STOPPED = 'not retired: the retirement ran out of its budget';

/** Retires everything the ledger holds, in dependency order, until `stop` aborts (its budget); never throws. */
export async function retire(
  ledger: RetirementLedger,
  clients: RetirementClients,
  clock: ServerClock,
  stop?: AbortSignal,
): Promise<RetirementOutcome> {
  const started = Date.now();
  const counts = Object.fromEntries(KINDS.map((k) => [k, { created: 0, failed: 0 }])) as RetirementOutcome['counts'];
  const failures: RetirementFailure[] = [];
  const step = async (kind: RetiredKind, id: string, work: () => Promise<string | null>) => {
    counts[kind].created += 1;
    let problem: string | null;
    try {
      problem = stop?.aborted ? RETIREMENT_STOPPED : await work();
    } catch (err) {
      problem = stop?.aborted ? RETIREMENT_STOPPED : (err as Error).message;
    }
    if (problem !== null) {
      counts[kind].failed += 1;
      failures.push({ kind, id, message: problem.slice(0, 500) });
    }
  };
  const refused = (reply: Reply) =>
    `${reply.exchange.request.method} ${reply.exchange.request.url.replace(/^https?:\/\/[^/]+/, '')} answered ${reply.status} ${reply.text.slice(0, 200)}`;

  await inPool([...ledger.routes], RETIREMENT_WIDTH, ([action, tenant]) =>
    step('route', action, async () => {
      const client = clients.dispatch(tenant);
      const read = await client.call('getRoute', { params: { action_id: action } });
      if (read.status !== 200) return refused(read);
      const view = read.json as RouteView;
      if (!view.reserved) return null;
      const settled = await client.call('settleRoute', {
        params: { action_id: action },
        body: { assignment: view.assignment, outcome: 'cancelled' },
      });
      return settled.status === 200 ? null : refused(settled);
    }),
  );
  await inPool([...ledger.replicas], RETIREMENT_WIDTH, (id) =>
    step('replica', id, async () => {
      const read = await clients.reader.call('getReplica', { params: { replica_id: id } });
      if (read.status !== 200) return refused(read);
      const r = read.json as { health_revision: number; status: string; lease_expires_at: string; capacity: number };
      if (r.status === 'offline') return null;
      const lease = new Date(Math.min(Date.parse(r.lease_expires_at), clock.now())).toISOString();
      const report = { health_revision: r.health_revision + 1, status: 'offline' as const, lease_expires_at: lease, capacity: r.capacity };
      const written = await clients.lifecycle.call('reportHealth', { params: { replica_id: id }, body: report });
      return written.status === 200 ? null : refused(written);
    }),
  );
  await inPool([...ledger.bindings], RETIREMENT_WIDTH, (key) =>
    step('binding', key, async () => {
      const [tenant_id, capability_id, instance_id] = JSON.parse(key) as [string, string, string];
      const params = { tenant_id, capability_id, instance_id };
      const read = await clients.reader.call('getBinding', { params });
      if (read.status !== 200) return refused(read);
      const b = read.json as CapabilityBinding;
      if (!b.enabled) return null;
      const written = await clients.admin.call('putBinding', {
        params,
        body: { ...b, enabled: false, policy_revision: b.policy_revision + 1 },
      });
      return written.status === 200 ? null : refused(written);
    }),
  );
  await inPool([...ledger.instances], RETIREMENT_WIDTH, (id) =>
    step('instance', id, async () => {
      const read = await clients.reader.call('getInstance', { params: { instance_id: id } });
      if (read.status !== 200) return refused(read);
      const i = read.json as ConnectorInstance;
      if (i.status === 'disabled') return null;
      const written = await clients.admin.call('putInstance', {
        params: { instance_id: id },
        body: { ...i, status: 'disabled', config_revision: i.config_revision + 1 },
      });
      return written.status === 200 ? null : refused(written);
    }),
  );
  await inPool([...ledger.types], RETIREMENT_WIDTH, (id) =>
    step('connector_type', id, async () => {
      const written = await clients.admin.call('setConnectorTypeEnabled', { params: { type_id: id }, body: { enabled: false } });
      return written.status === 200 ? null : refused(written);
    }),
  );
  return {
    status: failures.length === 0 ? 'retired' : 'incomplete',
    counts,
    failures: failures.slice(0, 50),
    duration_ms: Date.now() - started,
  };
}
