import { canonicalJson } from '../../../contract/canonical-json.js';
import { defineCase } from '../../harness/define-case.ts';
import { expectError, expectOk } from '../../harness/expect.ts';
import { sha256Hex } from '../../harness/fixtures.ts';

export default defineCase({
  id: 'records/canonical-json-decides-the-manifest-digest',
  clause: 'digest-canonical-json',
  category: 'records',
  description: 'manifest digests are SHA-256 of RFC 8785 canonical JSON, whatever order the body uses',
  async run(ctx) {
    const type = await ctx.fx.type();
    // Keys whose UTF-16 order differs from insertion order, non-ASCII text and numbers JCS rewrites.
    const schema = { zeta: 1, é: 'accent', Alpha: 2, '\u20ac': 1e21, '10': 0.5, a: [3, 2.0, 1e-7] };
    const capability = ctx.fx.capability({ name: 'Ünïcödé names', input_schema: { type: 'object', properties: schema } });
    const manifest = { capabilities: [capability], profiles: ['p.b', 'p.a'] };
    const canonical = `sha256:${sha256Hex(canonicalJson(manifest))}`;
    const naive = `sha256:${sha256Hex(JSON.stringify(manifest))}`;
    const base = ctx.build.version(ctx.ids.version(), type.id, [capability]);
    const wrong = { ...base, manifest, manifest_digest: naive };
    expectError(
      await ctx.admin.call('admitVersion', { params: { version_id: base.id }, body: wrong }),
      'ADMISSION_REJECTED',
      undefined,
      'digest of the non-canonical serialisation',
    );
    const right = { ...base, manifest, manifest_digest: canonical };
    expectOk(await ctx.admin.call('admitVersion', { params: { version_id: base.id }, body: right }), 'admission with the canonical digest');
  },
});
