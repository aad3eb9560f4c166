// Everything a client can observe about a fleet it owns: its records, replica
// state, routes and the counters of its scopes. Two equal snapshots mean a
// call changed nothing of it ([error-changes-nothing]). Global state (the
// catalog revision, fleet totals) is left out: other clients move it.
import type { CaseContext } from './context.ts';
import { expectOk } from './expect.ts';
import type { Fleet } from './fixtures.ts';

export async function snapshotFleet(ctx: CaseContext, fleet: Fleet, actions: string[] = []): Promise<Record<string, unknown>> {
  const r = ctx.reader;
  const out: Record<string, unknown> = {
    type: expectOk(await r.call('getConnectorType', { params: { type_id: fleet.type.id } })),
    version: expectOk(await r.call('getVersion', { params: { version_id: fleet.version.id } })),
    instance: expectOk(await r.call('getInstance', { params: { instance_id: fleet.instance.id } })),
    tenant_counter: await ctx.fx.counter('tenant', fleet.tenant),
    retry_counter: await ctx.fx.counter('tenant_retry', fleet.tenant),
    instance_counter: await ctx.fx.counter('instance', fleet.instance.id),
  };
  for (const b of fleet.bindings) {
    out[`binding ${b.capability_id}`] = expectOk(
      await r.call('getBinding', { params: { tenant_id: b.tenant_id, capability_id: b.capability_id, instance_id: b.instance_id } }),
    );
  }
  if (fleet.policy) out['policy'] = expectOk(await r.call('getAdmissionPolicy', { params: { policy_ref: fleet.policy.policy_ref } }));
  for (const replica of fleet.replicas) out[`replica ${replica.id}`] = await ctx.fx.replicaState(replica.id);
  for (const action of actions) out[`route ${action}`] = await ctx.fx.route(fleet.tenant, action);
  return out;
}
