import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

/** Above the largest URL limit the contract allows (16 KiB), inside the head every registry reads (48 KiB). */
const TARGET_BYTES = 24 * 1024;

export default defineCase({
  id: 'wire/long-request-target-is-uri-too-long',
  clause: 'wire-head-limits',
  category: 'wire',
  description: 'a 24 KiB request target is 414 URI_TOO_LONG with the error envelope, before authentication',
  async run(ctx) {
    const path = `/v1/connector-types/${ctx.ids.type()}?pad=`;
    const long = path + 'a'.repeat(TARGET_BYTES - path.length);
    // No token: the head limit comes before authentication.
    expectError(await ctx.api.raw('GET', long, { as: null }), 'URI_TOO_LONG', undefined, `a request target of ${long.length} bytes`);
  },
});
