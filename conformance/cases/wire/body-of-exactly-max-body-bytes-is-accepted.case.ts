import { defineCase } from '../../harness/define-case.ts';
import { expectEqual, expectOk } from '../../harness/expect.ts';
import { NotProvocable } from '../../harness/failure.ts';

/** Above this the case would have to send more than a client sensibly can. */
const LARGEST_PROBE = 256 * 1024 * 1024;

export default defineCase({
  id: 'wire/body-of-exactly-max-body-bytes-is-accepted',
  clause: 'wire-body-limit',
  category: 'wire',
  flags: ['slow'],
  description: 'a valid body of exactly max_body_bytes is taken like any other',
  async run(ctx) {
    const max = ctx.limits.max_body_bytes;
    if (max > LARGEST_PROBE) throw new NotProvocable(`max_body_bytes ${max} is beyond what this case sends (${LARGEST_PROBE})`);
    const type = ctx.build.connectorType(ctx.ids.type());
    // A valid type padded with insignificant whitespace to the limit itself: only a body larger than
    // max_body_bytes may be refused, so a refusal at the limit is off by one.
    const valid = JSON.stringify(type);
    const body = valid + ' '.repeat(max - Buffer.byteLength(valid));
    expectEqual(Buffer.byteLength(body), max, 'bytes in the probe body');
    expectOk(await ctx.admin.call('putConnectorType', { params: { type_id: type.id }, rawBody: body }), `a body of ${max} bytes`);
    const stored = expectOk(await ctx.reader.call('getConnectorType', { params: { type_id: type.id } }), 'the type afterwards');
    expectEqual(stored.name, type.name, 'name of the type sent in a body of max_body_bytes');
  },
});
