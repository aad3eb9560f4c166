import { limitProblems } from '../../../contract/records.ts';
import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';

export default defineCase({
  id: 'operations/declared-limits-are-legal',
  clause: 'limits-declared',
  category: 'operations',
  description: 'every limit GET /version declares lies in the legal range the contract sets for it',
  async run(ctx) {
    const reply = await ctx.anonymous.call('getVersionInfo');
    expectEqual(limitProblems(expectOk(reply).limits), [], 'problems with the declared limits', reply.exchange);
  },
});
