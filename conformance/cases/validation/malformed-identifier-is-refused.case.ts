import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'validation/malformed-identifier-is-invalid-request',
  clause: 'wire-closed-records',
  category: 'validation',
  description: 'a path parameter outside its id pattern is 400, not 404',
  async run(ctx) {
    const tenant = ctx.ids.tenant();
    const bad = ['has space', 'ümlaut', 'x'.repeat(300), 'a/b'];
    for (const id of bad) {
      expectError(await ctx.reader.call('getConnectorType', { params: { type_id: `ctype_${id}` } }), 'INVALID_REQUEST', undefined, `type id ctype_${id.slice(0, 20)}`);
      expectError(await ctx.reader.call('getReplica', { params: { replica_id: `crepl_${id}` } }), 'INVALID_REQUEST', undefined, `replica id crepl_${id.slice(0, 20)}`);
      expectError(await ctx.dispatch(tenant).call('getRoute', { params: { action_id: id } }), 'INVALID_REQUEST', undefined, `action id ${id.slice(0, 20)}`);
    }
    expectError(await ctx.dispatch(tenant).call('getRoute', { params: { action_id: '-leading-dash' } }), 'INVALID_REQUEST', undefined, 'action id -leading-dash');
    expectError(await ctx.reader.call('getVersion', { params: { version_id: 'version-without-prefix' } }), 'INVALID_REQUEST', undefined, 'version id without cver_');
    expectError(await ctx.reader.call('getAdmissionCounter', { params: { kind: 'planet' as never, key: tenant } }), 'INVALID_REQUEST', undefined, 'counter kind planet');
  },
});
