// The fixed world the fuzz test attacks: one routable fleet with a held and a
// settled route and an expired replica, one valid request per operation (each
// of which would change state if it were accepted), and a snapshot of
// everything those requests could change.
import { operations } from '../../../contract/openapi.ts';
import type { RouteView } from '../../../contract/records.ts';
import { internal, tenant, World, type Fleet } from '../../store/test/behaviour/world.ts';
import { b, HOUR, type TestRegistry } from './support.ts';

export const FUZZ_TENANT = 'tenant-fz';

export interface ValidRequest {
  operationId: string;
  params: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** The roles a token needs for this request to be accepted. */
  roles: string[];
}

export interface FuzzWorld {
  fleet: Fleet;
  held: RouteView;
  settled: RouteView;
  requests: Map<string, ValidRequest>;
}

export async function buildFuzzWorld(api: TestRegistry): Promise<FuzzWorld> {
  const world = new World(api.store, api.clock);
  const fleet = await world.fleet({ name: 'fz', tenantId: FUZZ_TENANT, replicas: 2, capacity: 100 });
  const capabilityId = fleet.capabilityIds[0]!;
  const held = await world.resolve(FUZZ_TENANT, 'act-held', capabilityId);
  const settled = await world.resolve(FUZZ_TENANT, 'act-settled', capabilityId);
  await world.settle(settled, 'completed');
  // An expired but not yet offline replica, so lease expiry has work to do.
  const [r1, r2] = fleet.replicas as [Fleet['replicas'][0], Fleet['replicas'][0]];
  await world.health(r2.id, { leaseMs: api.clock.now() + 1 });
  api.clock.advance(10);
  return { fleet, held, settled, requests: validRequests(fleet, held, r1.id, api.clock.now()) };
}

function validRequests(f: Fleet, held: RouteView, replicaId: string, nowMs: number): Map<string, ValidRequest> {
  const capabilityId = f.capabilityIds[0]!;
  const newType = b.connectorType('ctype_fuzz_new');
  const admin = ['registry:admin'];
  const lifecycle = ['registry:lifecycle'];
  const reader = ['registry:reader'];
  const dispatch = ['registry:dispatch'];
  const list: ValidRequest[] = [
    { operationId: 'putConnectorType', params: { type_id: newType.id }, body: newType, roles: admin },
    { operationId: 'getConnectorType', params: { type_id: f.typeId }, roles: reader },
    { operationId: 'setConnectorTypeEnabled', params: { type_id: f.typeId }, body: { enabled: false }, roles: admin },
    {
      operationId: 'admitVersion',
      params: { version_id: 'cver_fuzz_new' },
      body: b.version('cver_fuzz_new', f.typeId, [b.capability('cap.fuzz.new')], { version: '2.0.0' }),
      roles: admin,
    },
    { operationId: 'getVersion', params: { version_id: f.version.id }, roles: reader },
    { operationId: 'setVersionStatus', params: { version_id: f.version.id }, body: { status: 'revoked' }, roles: admin },
    {
      operationId: 'putInstance',
      params: { instance_id: f.instance.id },
      body: { ...f.instance, config_revision: 2, status: 'disabled' },
      roles: admin,
    },
    { operationId: 'getInstance', params: { instance_id: f.instance.id }, roles: reader },
    {
      operationId: 'putBinding',
      params: { tenant_id: FUZZ_TENANT, capability_id: capabilityId, instance_id: f.instance.id },
      body: { ...f.binding, policy_revision: 2, priority: 7 },
      roles: admin,
    },
    {
      operationId: 'getBinding',
      params: { tenant_id: FUZZ_TENANT, capability_id: capabilityId, instance_id: f.instance.id },
      roles: reader,
    },
    { operationId: 'putAdmissionPolicy', params: { policy_ref: 'policy-fuzz-new' }, body: b.policy('policy-fuzz-new'), roles: admin },
    { operationId: 'getAdmissionPolicy', params: { policy_ref: 'policy-fuzz-new' }, roles: reader },
    { operationId: 'getAdmissionCounter', params: { kind: 'tenant', key: FUZZ_TENANT }, roles: reader },
    {
      operationId: 'provisionReplica',
      params: { replica_id: 'crepl_fuzz_new' },
      body: b.replica('crepl_fuzz_new', f.instance.id, f.version.id, nowMs + HOUR),
      roles: lifecycle,
    },
    { operationId: 'getReplica', params: { replica_id: replicaId }, roles: reader },
    {
      operationId: 'reportHealth',
      params: { replica_id: replicaId },
      body: b.health(2, nowMs + HOUR, { status: 'draining' }),
      roles: lifecycle,
    },
    { operationId: 'applyBatch', params: {}, body: { items: [{ op: 'put_connector_type', record: newType }] }, roles: admin },
    { operationId: 'queryCatalog', params: {}, query: { limit: '10' }, roles: [] },
    { operationId: 'getCatalogCapability', params: { capability_id: capabilityId }, roles: [] },
    { operationId: 'resolveRoute', params: {}, body: { action_id: 'act-fuzz-new', capability_id: capabilityId }, roles: dispatch },
    { operationId: 'getRoute', params: { action_id: held.assignment.action_id }, roles: dispatch },
    {
      operationId: 'settleRoute',
      params: { action_id: held.assignment.action_id },
      body: { assignment: held.assignment, outcome: 'outcome_unknown' },
      roles: dispatch,
    },
    { operationId: 'getFleetStatus', params: {}, roles: ['registry:operator'] },
    { operationId: 'expireLeases', params: {}, body: { limit: 10 }, roles: ['registry:operator'] },
  ];
  const protectedIds = operations()
    .filter((e) => e.roles !== null)
    .map((e) => e.operation.operationId);
  const missing = protectedIds.filter((id) => !list.some((r) => r.operationId === id));
  if (missing.length > 0) throw new Error(`the fuzz world has no valid request for ${missing.join(', ')}`);
  return new Map(list.map((r) => [r.operationId, r]));
}

/** Everything an accepted request of the world could change, read from the store itself. */
export async function snapshot(api: TestRegistry, w: FuzzWorld): Promise<unknown> {
  const s = api.store;
  const f = w.fleet;
  const capabilityId = f.capabilityIds[0]!;
  return {
    revision: await s.catalogRevision(),
    fleet: await s.fleetStatus(),
    internalCatalog: await s.queryCatalog({ limit: 200 }, internal),
    tenantCatalog: await s.queryCatalog({ limit: 200 }, tenant(FUZZ_TENANT)),
    type: await s.getConnectorType(f.typeId),
    version: await s.getVersion(f.version.id),
    instance: await s.getInstance(f.instance.id),
    binding: await s.getBinding(FUZZ_TENANT, capabilityId, f.instance.id),
    replicas: await Promise.all(f.replicas.map((r) => s.getReplica(r.id))),
    routes: await Promise.all(['act-held', 'act-settled', 'act-fuzz-new'].map((a) => s.route(FUZZ_TENANT, a))),
    counters: await Promise.all(
      [
        ['tenant', FUZZ_TENANT],
        ['tenant_retry', FUZZ_TENANT],
        ['instance', f.instance.id],
      ].map(([kind, key]) => s.getAdmissionCounter(kind as 'tenant', key!)),
    ),
    created: {
      type: await s.getConnectorType('ctype_fuzz_new'),
      version: await s.getVersion('cver_fuzz_new'),
      policy: await s.getAdmissionPolicy('policy-fuzz-new'),
      replica: await s.getReplica('crepl_fuzz_new'),
    },
  };
}
