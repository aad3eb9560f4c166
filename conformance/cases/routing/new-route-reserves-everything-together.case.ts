import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectIdentical } from '../../harness/expect.ts';

export default defineCase({
  id: 'routing/new-route-reserves-everything-together',
  clause: 'route-atomic',
  category: 'routing',
  description: 'once a resolve answers, its scopes, replica unit and stored assignment are all visible',
  async run(ctx) {
    const fleet = await ctx.fx.fleet({
      policy: { max_tenant_in_flight: 10, max_instance_in_flight: 10, max_connector_type_in_flight: 10 },
    });
    const view = await ctx.fx.resolve(fleet.tenant, fleet.capability, ctx.ids.action());
    expectEqual(view.reserved, true, 'reserved in the resolve answer');
    expectEqual(await ctx.fx.active(view.assignment.replica_id), 1, 'replica active assignments');
    for (const scope of view.assignment.admission.base_scopes) {
      expectEqual(await ctx.fx.counter(scope.kind, scope.key), 1, `${scope.kind} counter`);
    }
    expectIdentical(await ctx.fx.route(fleet.tenant, view.assignment.action_id), view, 'the stored route');
  },
});
