// Every profile fitted to the smallest legal limits asks for nothing those
// limits refuse, and names each clamp among its overrides; at the reference's
// defaults the smoke profile is left as it is.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { canonicalJson } from '../../../contract/canonical-json.js';
import { DEFAULT_LIMITS, LIMIT_MINIMUMS } from '../../../contract/records.ts';
import { scaleDataset } from '../../lib/dataset.js';
import { fitProfileToLimits } from '../fit-to-limits.ts';
import { loadScaleContract, resolveProfile } from '../scale-contract.ts';

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const contract = loadScaleContract();

describe('profiles fitted to the declared limits', () => {
  for (const name of Object.keys(contract.profiles)) {
    it(`${name} fits the smallest legal limits`, () => {
      const limits = LIMIT_MINIMUMS;
      const fitted = fitProfileToLimits(resolveProfile(contract, name), limits);
      const data = scaleDataset({ runId: 'fit', dimensions: fitted.dataset, sha256Hex, leaseUntilMs: 0 });
      const v = data.version(1);
      assert.ok(v.manifest.capabilities.length <= limits.max_capabilities_per_version);
      assert.ok(Buffer.byteLength(canonicalJson(v.manifest)) <= limits.max_manifest_bytes);
      assert.ok(Buffer.byteLength(JSON.stringify(v)) <= limits.max_body_bytes);
      for (const phase of fitted.phases) {
        const p = phase.params ?? {};
        if (p['page_limit'] !== undefined) assert.ok(p['page_limit'] <= limits.max_page_size, `${phase.name}.page_limit`);
        if (p['max_batch_bytes'] !== undefined) assert.ok(p['max_batch_bytes'] <= limits.max_body_bytes, `${phase.name}.max_batch_bytes`);
      }
      assert.ok(
        fitted.fitted?.some((o) => o.startsWith('dataset.capabilities_per_version=1 ')),
        fitted.fitted?.join('; '),
      );
    });
  }

  it('leaves the smoke profile alone at the reference defaults', () => {
    const smoke = resolveProfile(contract, 'smoke');
    assert.deepEqual(fitProfileToLimits(smoke, DEFAULT_LIMITS), smoke);
  });
});
