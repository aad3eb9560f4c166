import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

/** Above the largest header limit the contract allows (32 KiB), inside the head every registry reads (48 KiB). */
const HEADER_BYTES = 40 * 1024;

export default defineCase({
  id: 'wire/large-header-fields-are-headers-too-large',
  clause: 'wire-head-limits',
  category: 'wire',
  description: '40 KiB of header fields are 431 HEADERS_TOO_LARGE with the error envelope, before authentication',
  async run(ctx) {
    // Four fields, so no single value depends on a per-field limit of its own.
    const headers = Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`x-fleetproof-pad-${i}`, 'p'.repeat(HEADER_BYTES / 4)]));
    const reply = await ctx.api.raw('GET', `/v1/connector-types/${ctx.ids.type()}`, { as: null, headers });
    expectError(reply, 'HEADERS_TOO_LARGE', undefined, `${HEADER_BYTES} bytes of header fields`);
  },
});
