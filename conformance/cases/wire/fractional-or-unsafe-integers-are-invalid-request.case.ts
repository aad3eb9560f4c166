import { unchecked } from '../../harness/client.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'wire/fractional-or-unsafe-integers-are-invalid-request',
  clause: 'wire-integers',
  category: 'wire',
  description: 'revisions, counts and limits with a fraction, below 0 or above 2^53 - 1 are 400',
  async run(ctx) {
    const fleet = await ctx.fx.fleet();
    const replica = fleet.replicas[0]!;
    const health = (over: object) => ({
      health_revision: 2,
      status: 'ready',
      lease_expires_at: replica.lease_expires_at,
      capacity: 10,
      ...over,
    });
    for (const bad of [
      { health_revision: 2.5 },
      { health_revision: -1 },
      { health_revision: 9007199254740992 },
      { capacity: 3.5 },
      { health_revision: '2' },
    ]) {
      const reply = await ctx.lifecycle.call('reportHealth', { params: { replica_id: replica.id }, body: unchecked(health(bad)) });
      expectError(reply, 'INVALID_REQUEST', undefined, `health report with ${JSON.stringify(bad)}`);
    }
    const instance = { ...fleet.instance, config_revision: 1e300 };
    expectError(
      await ctx.admin.call('putInstance', { params: { instance_id: instance.id }, body: unchecked(instance) }),
      'INVALID_REQUEST',
      undefined,
      'config_revision 1e300',
    );
    expectError(
      await ctx.operator.call('expireLeases', { body: unchecked({ limit: 1.5 }) }),
      'INVALID_REQUEST',
      undefined,
      'lease expiry limit 1.5',
    );
    const page = await ctx.catalogFor(fleet.tenant).call('queryCatalog', { query: { limit: '2.5' } });
    expectError(page, 'INVALID_REQUEST', undefined, 'catalog limit 2.5');
    expectEqual((await ctx.fx.replicaState(replica.id)).health_revision, replica.health_revision, 'health revision after the refusals');
  },
});
