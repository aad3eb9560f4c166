import { defineCase } from '../../harness/define-case.ts';
import { expectOneOf } from '../../harness/expect.ts';

/** A value outside its pattern is malformed and names no record: either answer is allowed (spec.md §20). */
const EITHER = ['INVALID_REQUEST', 'NOT_FOUND'] as const;

export default defineCase({
  id: 'validation/malformed-identifier-is-refused',
  clause: 'wire-closed-records',
  category: 'validation',
  description: 'a path parameter outside its id pattern is 400 or 404, never a success or a crash',
  async run(ctx) {
    const tenant = ctx.ids.tenant();
    const bad = ['has space', 'ümlaut', 'x'.repeat(300), 'a/b'];
    for (const id of bad) {
      expectOneOf(
        await ctx.reader.call('getConnectorType', { params: { type_id: `ctype_${id}` } }),
        EITHER,
        `type id ctype_${id.slice(0, 20)}`,
      );
      expectOneOf(
        await ctx.reader.call('getReplica', { params: { replica_id: `crepl_${id}` } }),
        EITHER,
        `replica id crepl_${id.slice(0, 20)}`,
      );
      expectOneOf(await ctx.dispatch(tenant).call('getRoute', { params: { action_id: id } }), EITHER, `action id ${id.slice(0, 20)}`);
    }
    expectOneOf(await ctx.dispatch(tenant).call('getRoute', { params: { action_id: '-leading-dash' } }), EITHER, 'action id -leading-dash');
    expectOneOf(
      await ctx.reader.call('getVersion', { params: { version_id: 'version-without-prefix' } }),
      EITHER,
      'version id without cver_',
    );
    expectOneOf(
      await ctx.reader.call('getAdmissionCounter', { params: { kind: 'planet' as never, key: tenant } }),
      EITHER,
      'counter kind planet',
    );
  },
});
