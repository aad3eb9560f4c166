import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';
import { NotProvocable } from '../../harness/failure.ts';

/** Above this the case would have to send more than a client sensibly can. */
const LARGEST_PROBE = 256 * 1024 * 1024;

export default defineCase({
  id: 'wire/oversized-body-is-payload-too-large',
  clause: 'wire-body-limit',
  category: 'wire',
  flags: ['slow'],
  description: 'a body one byte above max_body_bytes is 413 and changes nothing',
  async run(ctx) {
    const max = ctx.limits.max_body_bytes;
    if (max + 1 > LARGEST_PROBE) throw new NotProvocable(`max_body_bytes ${max} is beyond what this case sends (${LARGEST_PROBE})`);
    const type = ctx.build.connectorType(ctx.ids.type());
    // A valid type padded with insignificant whitespace: the body breaks the size limit and no shape rule,
    // so 413 is the one right answer, whichever rule a registry checks first ([error-precedence]).
    const valid = JSON.stringify(type);
    const body = valid + ' '.repeat(Math.max(0, max + 1 - Buffer.byteLength(valid)));
    // A server may answer 413 and close before it has read the body: the transport surfaces that early answer.
    const reply = await ctx.admin.call('putConnectorType', { params: { type_id: type.id }, rawBody: body });
    expectError(reply, 'PAYLOAD_TOO_LARGE', undefined, `a body of ${Buffer.byteLength(body)} bytes`);
    expectError(await ctx.reader.call('getConnectorType', { params: { type_id: type.id } }), 'NOT_FOUND', undefined, 'the type afterwards');
  },
});
