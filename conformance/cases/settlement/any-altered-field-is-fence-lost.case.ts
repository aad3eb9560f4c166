import type { RouteAssignment } from '../../../contract/records.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectIdentical } from '../../harness/expect.ts';

/** Every single-field change a caller could present, each still a well-formed assignment. */
function alterations(a: RouteAssignment): Array<[string, RouteAssignment]> {
  const out: Array<[string, RouteAssignment]> = [];
  for (const [key, value] of Object.entries(a)) {
    if (key === 'assigned_at') out.push([key, { ...a, assigned_at: '2001-01-01T00:00:00.000Z' }]);
    else if (key.endsWith('digest')) out.push([key, { ...a, [key]: `sha256:${'0'.repeat(64)}` }]);
    // The registry mints the fence token and may mint it at the schema's length bound: change it in place.
    else if (key === 'fence_token')
      out.push([key, { ...a, fence_token: `${a.fence_token.slice(0, -1)}${a.fence_token.endsWith('x') ? 'y' : 'x'}` }]);
    else if (key === 'peer_principal_kind') out.push([key, { ...a, peer_principal_kind: value === 'agent' ? 'service' : 'agent' }]);
    else if (typeof value === 'string') out.push([key, { ...a, [key]: `${value}x` }]);
    else if (typeof value === 'number') out.push([key, { ...a, [key]: value + 1 }]);
    else if (value === null) out.push([key, { ...a, [key]: 'x' }]);
  }
  const adm = a.admission;
  out.push(['topology.zone', { ...a, topology: { ...a.topology, zone: 'elsewhere' } }]);
  out.push(['admission.circuit_open_ms', { ...a, admission: { ...adm, circuit_open_ms: adm.circuit_open_ms + 1 } }]);
  out.push([
    'admission.base_scopes[0].limit',
    { ...a, admission: { ...adm, base_scopes: adm.base_scopes.map((s, i) => (i === 0 ? { ...s, limit: s.limit + 1 } : s)) } },
  ]);
  out.push(['admission.retry_scope', { ...a, admission: { ...adm, retry_scope: null } }]);
  return out;
}

export default defineCase({
  id: 'settlement/any-altered-field-is-fence-lost',
  clause: 'settle-fence',
  category: 'settlement',
  description: 'a settlement whose assignment differs in any one field is FENCE_LOST and changes nothing',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({ policy: { max_tenant_in_flight: 9, max_tenant_retry_in_flight: 9 } });
    const view = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    const action = view.assignment.action_id;
    for (const [field, altered] of alterations(view.assignment)) {
      const reply = await ctx
        .dispatch(fleet.tenant)
        .call('settleRoute', { params: { action_id: action }, body: { assignment: altered, outcome: 'completed' } });
      expectError(reply, 'FENCE_LOST', undefined, `${field} altered`);
    }
    expectIdentical(await ctx.fx.route(fleet.tenant, action), view, 'the route after every refusal');
    expectIdentical(await ctx.fx.counter('tenant', fleet.tenant), 1, 'tenant counter');
  },
});
