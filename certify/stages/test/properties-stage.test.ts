// Certification's properties stage judges only while it can: when the
// registry goes away behind its ingress mid-stage (every request answered
// by the ingress's own 502 page, which is no answer of the registry's), the
// suites it breaks could not judge, and the stage says so (could-not-run),
// never failed. A loopback proxy in front of the reference turns after a
// number of requests, past the suites' first seeds.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startEmbeddedReference } from '../../../reference/embedded-reference.ts';
import { turningProxy } from '../../../properties/test/turning-proxy.ts';
import { propertiesStage } from '../properties-stage.ts';

test('a registry gone behind its ingress mid-stage: could not run, not failed', async (t) => {
  const out = await mkdtemp(join(tmpdir(), 'fleetproof-properties-stage-'));
  const reference = await startEmbeddedReference({ store: 'memory' });
  const front = await turningProxy(reference.url, 120, 'gateway-down');
  t.after(async () => {
    await front.close();
    await reference.close();
    await rm(out, { recursive: true, force: true });
  });
  const { record, failures } = await propertiesStage({
    out,
    runId: 'fp20261201t000000props001',
    targetUrl: front.url,
    key: reference.signingKey,
    keyPath: reference.signingKeyPath,
    profile: 'smoke',
    targetFlags: '--target T --key K',
    log: () => {},
  });
  assert.equal(record.status, 'could-not-run', JSON.stringify(record.reasons));
  assert.ok(failures.length > 0, 'the suites the refusal broke are listed');
  for (const f of failures) assert.match(f.message, /^could not judge: no verdict: after this suite /, `${f.subject}: ${f.message}`);
});
