import { canonicalJson } from '../../../contract/canonical-json.js';
import { defineCase } from '../../harness/define-case.ts';
import { expectOk } from '../../harness/expect.ts';
import { HarnessError, NotProvocable } from '../../harness/failure.ts';
import { capabilityOfBytes, definitionBytes } from '../../harness/sizes.ts';

export default defineCase({
  id: 'records/capability-of-max-capability-bytes-is-admitted',
  clause: 'records-version-limits',
  category: 'records',
  flags: ['slow'],
  description: 'a capability definition of exactly max_capability_bytes, valid otherwise, is admitted',
  async run(ctx) {
    const { max_capability_bytes: max, max_body_bytes: body, max_manifest_bytes: manifest } = ctx.limits;
    // The whole definition ([records-version-limits]) measured at the limit itself: only larger is refused.
    const big = capabilityOfBytes(ctx, 'big', max);
    if (definitionBytes(big) !== max) throw new HarnessError(`the probe capability has ${definitionBytes(big)} bytes, not ${max}`);
    const v = ctx.build.version(ctx.ids.version(), ctx.ids.type(), [big]);
    // Above the manifest limit too, a refusal would be for the manifest; above the body limit, a 413.
    const [manifestBytes, bodyBytes] = [Buffer.byteLength(canonicalJson(v.manifest)), Buffer.byteLength(JSON.stringify(v))];
    if (manifestBytes > manifest || bodyBytes > body)
      throw new NotProvocable(
        `a capability of max_capability_bytes ${max} makes a manifest of ${manifestBytes} bytes (max_manifest_bytes ${manifest}) in a body of ${bodyBytes} (max_body_bytes ${body})`,
      );
    await ctx.fx.type({ id: v.connector_type_id });
    expectOk(await ctx.admin.call('admitVersion', { params: { version_id: v.id }, body: v }), `a capability of ${max} bytes`);
    expectOk(await ctx.reader.call('getVersion', { params: { version_id: v.id } }), 'the version afterwards');
  },
});
