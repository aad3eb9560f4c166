// `fleetproof directory watch` against a fake Kubernetes API server and the
// reference registry over HTTP: usage errors, a run that provisions replicas
// and stops cleanly on SIGTERM, and the exit when the Service is deleted.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { stringify as toYaml } from 'yaml';
import { loadJwks, writeSigningKeys } from '../../contract/tokens.ts';
import { ManualClock } from '../../reference/domain/time.ts';
import { targetFor, until } from '../../directory/bridge/test/support.ts';
import { FakeKubeApiServer } from '../../directory/kubernetes/test/support/fake-apiserver.ts';
import { serviceObject, sliceObject, testBinding } from '../../directory/kubernetes/test/support/objects.ts';
import { createRegistryServer, type RegistryServer } from '../../reference/http/server.ts';
import { World } from '../../reference/store/test/behaviour/world.ts';
import { MemoryStore } from '../../reference/store/memory/memory-store.ts';
import { main } from '../main.ts';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/fleetproof.js', import.meta.url));

describe('fleetproof directory watch', () => {
  let dir: string;
  let kube: FakeKubeApiServer;
  let registry: RegistryServer;
  let registryUrl: string;
  let store: MemoryStore;
  let keyPath: string;
  let bindingPath: string;
  let binding: ReturnType<typeof testBinding>;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fleetproof-directory-'));
    const keys = await writeSigningKeys(dir);
    keyPath = keys.signingKeyPath;
    store = new MemoryStore();
    const world = new World(store, new ManualClock(Date.now()));
    const fleet = await world.fleet({ name: 'cli', replicas: 0 });
    registry = createRegistryServer({ store, jwks: await loadJwks(keys.jwksPath), log: () => {} });
    registryUrl = await registry.listen(0, '127.0.0.1');
    kube = await FakeKubeApiServer.start({ token: 'kube-secret' });
    binding = testBinding({ apiOrigin: kube.origin, target: targetFor(fleet) });
    kube.putService(serviceObject(binding));
    kube.putSlice(sliceObject(binding, { name: 'cli-1', endpoints: [{ uid: 'pod-1', addresses: ['10.1.0.1'] }] }));
    await writeFile(join(dir, 'kube-token'), 'kube-secret\n');
    bindingPath = join(dir, 'binding.yaml');
    const t = binding.target;
    await writeFile(
      bindingPath,
      toYaml({
        version: 'fleetproof-directory/v1',
        target: {
          instance_id: t.instanceId,
          version_id: t.versionId,
          manifest_digest: t.manifestDigest,
          canonical_endpoint: t.canonicalEndpoint,
          audience: t.audience,
        },
        kubernetes: {
          namespace: binding.namespace,
          service_name: binding.serviceName,
          service_uid: binding.serviceUid,
          endpoint_slice_managed_by: binding.endpointSliceManagedBy,
          service_owner_labels: binding.serviceOwnerLabels,
          endpoint_slice_labels: binding.endpointSliceLabels,
          address_type: 'IPv4',
          port_name: 'http',
          protocol: 'TCP',
          bounds: {
            list_response_bytes: 1048576,
            watch_envelope_bytes: 65536,
            endpoint_slice_count: 16,
            endpoint_count: 64,
            pending_changes: 16,
          },
        },
        replica: {
          id_pattern: 'crepl_cli_{uid}',
          endpoint_pattern: 'http://{host}:{port}/mcp',
          peer_principal_id_pattern: 'connector/cli/{uid}',
          peer_principal_kind: 'service',
          peer_did_pattern: 'did:web:connectors.example:cli:{uid}',
          trust_domain: 'connectors.example',
          transport_profile: 'aip.native.http.v1',
          topology: { region: 'global', zone: 'default', capacity_class: 'standard' },
          capacity: 5,
          lease_ttl_ms: 30000,
        },
        backoff: { initial_ms: 50, max_ms: 500 },
      }),
    );
  });

  after(async () => {
    await kube.close();
    await registry.close();
    await rm(dir, { recursive: true, force: true });
  });

  const args = (over: Record<string, string | null> = {}) => {
    const flags: Record<string, string | null> = {
      'kube-api': kube.origin,
      binding: bindingPath,
      target: registryUrl,
      key: keyPath,
      'kube-token-file': join(dir, 'kube-token'),
      ...over,
    };
    return ['directory', 'watch', ...Object.entries(flags).flatMap(([k, v]) => (v === null ? [] : [`--${k}`, v]))];
  };

  test('usage errors exit 2; help exits 0', async () => {
    assert.equal(await main(['directory', 'watch', '--help']), 0);
    assert.equal(await main(['directory', '--help']), 0);
    assert.equal(await main(['directory']), 2);
    assert.equal(await main(['directory', 'listen']), 2);
    assert.equal(await main([...args(), '--bogus', 'x']), 2);
    assert.equal(await main(args({ binding: null })), 2);
    assert.equal(await main(args({ 'kube-api': `${kube.origin}/` })), 2, 'the API origin must be canonical');
    assert.equal(await main(args({ target: 'ftp://registry' })), 2);
    assert.equal(await main(args({ binding: join(dir, 'absent.yaml') })), 2);
    assert.equal(await main(args({ key: join(dir, 'absent.jwk.json') })), 2);
    const broken = join(dir, 'broken.yaml');
    await writeFile(broken, 'version: fleetproof-directory/v1\ntarget: {}\n');
    assert.equal(await main(args({ binding: broken })), 2);
  });

  test('labels prints the markers the Service and its slices must carry', async () => {
    const printed: string[] = [];
    const log = console.log;
    console.log = (line: string) => printed.push(line);
    try {
      assert.equal(await main(['directory', 'labels', '--binding', bindingPath]), 0);
    } finally {
      console.log = log;
    }
    const text = printed.join('\n');
    assert.match(text, new RegExp(`fleetproof.dev/directory-target=${binding.targetKey}`));
    assert.match(text, /fleetproof.dev\/binding-version=v1/);
    assert.match(text, /kubernetes.io\/service-name=alpha/);
    assert.equal(await main(['directory', 'labels']), 2);
    const errors: string[] = [];
    const error = console.error;
    console.error = (line: string) => errors.push(line);
    try {
      assert.equal(await main(['directory', 'labels', '--binding', join(dir, 'absent.yaml')]), 2);
    } finally {
      console.error = error;
    }
    assert.match(errors.join('\n'), /cannot read binding file .*absent\.yaml.* \[FP_ERR_BINDING_FILE\]$/m);
  });

  test('a child process provisions replicas and stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, [BIN, ...args()], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await until('the replica to be provisioned', async () => (await store.getReplica('crepl_cli_pod-1'))?.status === 'ready', 20_000);
      const replica = (await store.getReplica('crepl_cli_pod-1'))!;
      assert.equal(replica.endpoint, 'http://10.1.0.1:8080/mcp');
      assert.equal(replica.capacity, 5);
      assert.ok(kube.requests.every((r) => r.authorization === 'Bearer kube-secret'));
      child.kill('SIGTERM');
      assert.equal(await exit, 0, stderr);
      assert.match(stdout, /provisioned crepl_cli_pod-1 ready/);
      assert.match(stderr, /SIGTERM/);
    } finally {
      child.kill('SIGKILL');
    }
  });

  test('the command ends with exit 1 when the Service is deleted', async () => {
    const watches = () => kube.requests.filter((r) => r.query['watch'] === 'true').length;
    const opened = watches();
    const running = main(args());
    await until('both watches open', () => watches() === opened + 2);
    kube.deleteService(binding.namespace, binding.serviceName);
    assert.equal(await running, 1);
    assert.equal((await store.getReplica('crepl_cli_pod-1'))!.status, 'offline');
  });
});
