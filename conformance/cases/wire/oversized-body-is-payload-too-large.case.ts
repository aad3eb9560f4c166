import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';
import { HarnessError, NotProvocable } from '../../harness/failure.ts';

/** Above this the case would have to send more than a client sensibly can. */
const LARGEST_PROBE = 256 * 1024 * 1024;
/**
 * A server may answer 413 and close while the body is still being written; the
 * client then sees the broken write (EPIPE, a reset) instead of the answer it
 * was sent. That says nothing about the registry, so the case sends again.
 */
const ATTEMPTS = 6;
const EARLY_CLOSE = /EPIPE|ECONNRESET|UND_ERR_SOCKET|other side closed/;

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
    const send = () => ctx.admin.call('putConnectorType', { params: { type_id: type.id }, rawBody: body });
    let reply;
    for (let attempt = 1; reply === undefined; attempt++) {
      try {
        reply = await send();
      } catch (err) {
        if (!(err instanceof HarnessError) || !EARLY_CLOSE.test(err.message) || attempt === ATTEMPTS) throw err;
      }
    }
    expectError(reply, 'PAYLOAD_TOO_LARGE', undefined, `a body of ${Buffer.byteLength(body)} bytes`);
    expectError(await ctx.reader.call('getConnectorType', { params: { type_id: type.id } }), 'NOT_FOUND', undefined, 'the type afterwards');
  },
});
