import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'operations/health-answers-without-a-token',
  clause: 'ops-health',
  category: 'operations',
  description: 'GET /health answers 200 {"status":"ok"} without authentication',
  async run(ctx) {
    const body = expectOk(await ctx.anonymous.call('getHealth'));
    expectEqual(body.status, 'ok', 'health status');
  },
});
