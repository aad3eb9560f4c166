import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { stringify as toYaml } from 'yaml';
import { REFERENCE_TARGET_INPUT } from '../../test/kit/fixtures.ts';
import { BindingFileError, loadBindingFile, parseBindingFile } from '../binding-file.ts';

const API = 'https://kube.example:6443';

function document(): Record<string, any> {
  const t = REFERENCE_TARGET_INPUT;
  return {
    version: 'fleetproof-directory/v1',
    target: {
      instance_id: t.instanceId,
      version_id: t.versionId,
      manifest_digest: t.manifestDigest,
      canonical_endpoint: t.canonicalEndpoint,
      audience: t.audience,
    },
    kubernetes: {
      namespace: 'connectors',
      service_name: 'alpha',
      service_uid: 'svc-uid-1',
      endpoint_slice_managed_by: 'endpointslice-controller.k8s.io',
      service_owner_labels: { 'app.kubernetes.io/part-of': 'fleetproof' },
      endpoint_slice_labels: { 'app.kubernetes.io/part-of': 'fleetproof' },
      address_type: 'IPv6',
      port_name: 'http',
      protocol: 'TCP',
      bounds: { list_response_bytes: 1000, watch_envelope_bytes: 100, endpoint_slice_count: 4, endpoint_count: 8, pending_changes: 2 },
    },
    replica: {
      id_pattern: 'crepl_alpha_{uid}',
      endpoint_pattern: 'http://{host}:{port}/mcp',
      peer_principal_id_pattern: 'connector/{uid}',
      peer_principal_kind: 'service',
      peer_did_pattern: 'did:web:connectors.example:{uid}',
      trust_domain: 'connectors.example',
      transport_profile: 'aip.native.http.v1',
      topology: { region: 'eu', zone: '{zone}', capacity_class: 'standard' },
      capacity: 7,
      lease_ttl_ms: 15000,
    },
  };
}

test('a complete binding file becomes a Binding v1 and a replica template', () => {
  const parsed = parseBindingFile(document(), API);
  assert.equal(parsed.kubernetes.apiOrigin, API);
  assert.equal(parsed.kubernetes.addressType, 'IPv6');
  assert.deepEqual(parsed.kubernetes.bounds, {
    listResponseBytes: 1000,
    watchEnvelopeBytes: 100,
    endpointSliceCount: 4,
    endpointCount: 8,
    pendingChanges: 2,
  });
  assert.equal(parsed.kubernetes.target.instanceId, 'cinst_alpha');
  assert.equal(parsed.template.topology.zone, '{zone}');
  assert.equal(parsed.template.leaseTtlMs, 15000);
  assert.equal(parsed.backoff, undefined);
  assert.deepEqual(parseBindingFile({ ...document(), backoff: { initial_ms: 10, max_ms: 20 } }, API).backoff, { initialMs: 10, maxMs: 20 });
});

test('unknown, missing and wrongly typed fields are refused with their path', () => {
  const cases: Array<[string, (d: Record<string, any>) => void, RegExp]> = [
    ['unknown top-level field', (d) => (d['extra'] = 1), /binding\.extra is not a known field/],
    ['typo in kubernetes', (d) => (d['kubernetes']['namespce'] = 'x'), /kubernetes\.namespce/],
    ['missing bound', (d) => delete d['kubernetes']['bounds']['pending_changes'], /kubernetes\.bounds\.pending_changes is required/],
    ['zero bound', (d) => (d['kubernetes']['bounds']['pending_changes'] = 0), /valid exact target and Binding v1/],
    ['string capacity', (d) => (d['replica']['capacity'] = '7'), /replica\.capacity must be an integer/],
    ['wrong version', (d) => (d['version'] = 'v2'), /binding\.version/],
    ['audience not derived from the endpoint', (d) => (d['target']['audience'] = 'https://other.example'), /valid exact target/],
    ['api origin disagrees', (d) => (d['kubernetes']['api_origin'] = 'https://other.example'), /differs from --kube-api/],
    ['template without uid', (d) => (d['replica']['id_pattern'] = 'crepl_alpha'), /replica template: .*\{uid\}/],
    ['template with an invalid did', (d) => (d['replica']['peer_did_pattern'] = 'web:{uid}'), /replica template/],
    [
      'label value not a string',
      (d) => (d['kubernetes']['service_owner_labels'] = { app: 1 }),
      /service_owner_labels\.app must be a string/,
    ],
    ['backoff upside down', (d) => (d['backoff'] = { initial_ms: 20, max_ms: 10 }), /backoff/],
  ];
  for (const [name, change, message] of cases) {
    const d = document();
    change(d);
    assert.throws(
      () => parseBindingFile(d, API),
      (e: unknown) => e instanceof BindingFileError && message.test(e.message),
      name,
    );
  }
  assert.throws(() => parseBindingFile(document(), `${API}/`), /canonical origin/);
  assert.throws(() => parseBindingFile([], API), /binding must be an object/);
});

test('binding files are read as YAML or JSON', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'fleetproof-binding-'));
  try {
    await writeFile(join(dir, 'b.yaml'), toYaml(document()));
    await writeFile(join(dir, 'b.json'), JSON.stringify(document()));
    await writeFile(join(dir, 'bad.yaml'), 'version: [unclosed');
    const fromYaml = await loadBindingFile(join(dir, 'b.yaml'), API);
    const fromJson = await loadBindingFile(join(dir, 'b.json'), API);
    assert.deepEqual(fromYaml, fromJson);
    await assert.rejects(loadBindingFile(join(dir, 'bad.yaml'), API), BindingFileError);
    await assert.rejects(loadBindingFile(join(dir, 'absent.yaml'), API), /cannot read binding file/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
