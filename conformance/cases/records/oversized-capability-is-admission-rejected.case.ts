import { defineCase } from '../../harness/define-case.ts';
import { canonicalJson } from '../../../contract/canonical-json.js';
import { expectError } from '../../harness/expect.ts';
import { HarnessError, NotProvocable } from '../../harness/failure.ts';
import { capabilityOfBytes, definitionBytes } from '../../harness/sizes.ts';

export default defineCase({
  id: 'records/oversized-capability-is-admission-rejected',
  clause: 'records-version-limits',
  category: 'records',
  flags: ['slow'],
  description: 'a capability definition above max_capability_bytes is 422',
  async run(ctx) {
    const { max_capability_bytes: max, max_body_bytes: body, max_manifest_bytes: manifest } = ctx.limits;
    // One byte over max_capability_bytes, measured, so the manifest and body hold as little as the rule allows.
    const big = capabilityOfBytes(ctx, 'big', max + 1);
    const v = ctx.build.version(ctx.ids.version(), ctx.ids.type(), [big]);
    // Above the manifest limit too, the refusal could be for the manifest alone; above the body limit it is a 413.
    const [manifestBytes, bodyBytes] = [Buffer.byteLength(canonicalJson(v.manifest)), Buffer.byteLength(JSON.stringify(v))];
    if (manifestBytes > manifest || bodyBytes > body)
      throw new NotProvocable(
        `a capability above max_capability_bytes ${max} makes a manifest of ${manifestBytes} bytes (max_manifest_bytes ${manifest}) in a body of ${bodyBytes} (max_body_bytes ${body})`,
      );
    if (definitionBytes(big) !== max + 1) throw new HarnessError(`the probe capability has ${definitionBytes(big)} bytes, not ${max + 1}`);
    await ctx.fx.type({ id: v.connector_type_id });
    expectError(await ctx.admin.call('admitVersion', { params: { version_id: v.id }, body: v }), 'ADMISSION_REJECTED');
    expectError(await ctx.reader.call('getVersion', { params: { version_id: v.id } }), 'NOT_FOUND', undefined, 'the version afterwards');
  },
});
