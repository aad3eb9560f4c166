import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'operations/ready-answers-without-a-token',
  clause: 'ops-ready',
  category: 'operations',
  description: 'GET /ready answers 200 ready without authentication while the registry serves',
  async run(ctx) {
    const body = expectOk(await ctx.anonymous.call('getReady'));
    expectEqual(body.status, 'ready', 'readiness status');
  },
});
