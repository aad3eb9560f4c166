import assert from 'node:assert/strict';
import { test } from 'node:test';
import { targetKey } from '../../target.ts';
import { throwsOutcome } from '../../test/kit/assert-outcome.ts';
import { referenceTarget } from '../../test/kit/fixtures.ts';
import {
  BINDING_VERSION_LABEL,
  createBinding,
  endpointSliceRequiredLabels,
  endpointSliceSelectorLabels,
  isValidBinding,
  MANAGED_BY_LABEL,
  SERVICE_NAME_LABEL,
  serviceLabels,
  TARGET_LABEL,
  type KubernetesBindingInput,
} from '../binding.ts';
import { isCanonicalAddress, isLabelKey, isNamespace, isPortName, isServiceName } from '../names.ts';
import { isCanonicalOrigin } from '../../target.ts';
import { bindingInput, testBinding } from './support/objects.ts';

test('binding keeps every value exactly and derives its markers', () => {
  const input = bindingInput();
  const b = createBinding(input);
  for (const key of Object.keys(input) as Array<keyof KubernetesBindingInput>) assert.deepEqual(b[key], input[key], key);
  assert.equal(b.targetKey, targetKey(input.target));
  assert.deepEqual(serviceLabels(b), {
    'app.kubernetes.io/part-of': 'fleetproof',
    [BINDING_VERSION_LABEL]: 'v1',
    [TARGET_LABEL]: b.targetKey,
  });
  const selector = endpointSliceSelectorLabels(b);
  assert.equal(selector[SERVICE_NAME_LABEL], 'alpha');
  assert.equal(selector[MANAGED_BY_LABEL], 'endpointslice-controller.k8s.io');
  assert.ok(!(TARGET_LABEL in selector) && !(BINDING_VERSION_LABEL in selector), 'markers are checked, never selected on');
  assert.deepEqual(endpointSliceRequiredLabels(b), { ...selector, [BINDING_VERSION_LABEL]: 'v1', [TARGET_LABEL]: b.targetKey });
});

test('binding labels are copies: neither the input nor a returned map can change it', () => {
  const input = bindingInput();
  const owner = { ...input.serviceOwnerLabels };
  const b = createBinding({ ...input, serviceOwnerLabels: owner });
  owner['app.kubernetes.io/part-of'] = 'changed';
  assert.equal(b.serviceOwnerLabels['app.kubernetes.io/part-of'], 'fleetproof');
  const labels = serviceLabels(b);
  labels[TARGET_LABEL] = 'forged';
  assert.equal(serviceLabels(b)[TARGET_LABEL], b.targetKey);
  assert.throws(() => ((b.serviceOwnerLabels as Record<string, string>)['x'] = 'y'), TypeError);
});

test('binding refuses defaults, reserved labels and raw instance ids as markers', () => {
  const cases: Array<[string, Partial<KubernetesBindingInput> | ((i: KubernetesBindingInput) => unknown)]> = [
    ['no version', (i) => ({ ...i, version: undefined })],
    ['version v2', { version: 'v2' as 'v1' }],
    ['no namespace', (i) => ({ ...i, namespace: undefined })],
    ['no owner labels', (i) => ({ ...i, serviceOwnerLabels: undefined })],
    ['empty owner labels', { serviceOwnerLabels: {} }],
    ['empty slice labels', { endpointSliceLabels: {} }],
    ['reserved slice label', { endpointSliceLabels: { [SERVICE_NAME_LABEL]: 'alpha' } }],
    ['reserved owner label', { serviceOwnerLabels: { [TARGET_LABEL]: 'x' } }],
    ['raw instance id as value', { serviceOwnerLabels: { app: referenceTarget().instanceId } }],
    ['upper-case API host', { apiOrigin: 'https://Kube.example:6443' }],
    ['API origin with a path', { apiOrigin: 'https://kube.example:6443/' }],
    ['API origin with default port', { apiOrigin: 'https://kube.example:443' }],
    ['namespace with a dot', { namespace: 'conn.ectors' }],
    ['namespace with capitals', { namespace: 'Connectors' }],
    ['service name starting with a digit', { serviceName: '1alpha' }],
    ['UID with a leading space', { serviceUid: ' svc-uid-1' }],
    ['managed-by with a comma', { endpointSliceManagedBy: 'a,b' }],
    ['FQDN address type', { addressType: 'FQDN' as 'IPv4' }],
    ['upper-case port name', { portName: 'HTTP' }],
    ['UDP', { protocol: 'UDP' as 'TCP' }],
    ['invalid target', { target: { ...referenceTarget(), audience: 'https://other.example' } }],
  ];
  for (const [name, change] of cases) {
    const input = typeof change === 'function' ? (change(bindingInput()) as KubernetesBindingInput) : bindingInput(change);
    assert.throws(
      () => createBinding(input),
      (e: unknown) => (e as { outcome?: string }).outcome === 'invalid',
      name,
    );
  }
  for (const bound of ['listResponseBytes', 'watchEnvelopeBytes', 'endpointSliceCount', 'endpointCount', 'pendingChanges'] as const) {
    for (const value of [0, -1, 1.5]) {
      const input = bindingInput();
      throwsOutcome(() => createBinding({ ...input, bounds: { ...input.bounds, [bound]: value } }), 'invalid');
    }
  }
});

test('a stored binding is re-validated, derived key included', () => {
  const good = structuredClone(testBinding()) as unknown as Record<string, unknown>;
  assert.ok(isValidBinding(good));
  const corruptions: Array<(b: Record<string, unknown>) => void> = [
    (b) => (b['version'] = 'v2'),
    (b) => (b['target'] = { ...(b['target'] as object), versionId: '' }),
    (b) => (b['apiOrigin'] = 'kube.example'),
    (b) => (b['bounds'] = { ...(b['bounds'] as object), pendingChanges: 0 }),
    (b) => (b['serviceOwnerLabels'] = []),
    (b) => (b['endpointSliceLabels'] = { [TARGET_LABEL]: 'x' }),
    (b) => (b['serviceOwnerLabels'] = { app: 'cinst_alpha' }),
    (b) => (b['targetKey'] = 'a'.repeat(52)),
  ];
  for (const corrupt of corruptions) {
    const copy = structuredClone(good);
    corrupt(copy);
    assert.ok(!isValidBinding(copy), corrupt.toString());
  }
});

test('provider value validators hold their boundaries', () => {
  for (const ok of ['https://kube.example', 'http://kube.example:8080', 'https://10.0.0.1:6443', 'https://[2001:db8::1]:6443'])
    assert.ok(isCanonicalOrigin(ok), ok);
  for (const bad of [
    'https://kube.example/',
    'https://kube.example:443',
    'http://kube.example:80',
    'https://[2001:DB8::1]',
    'https://2001:db8::1',
    'https://KUBE.example',
    'https://kube.example/api',
    'https://u@kube.example',
    'https://kube.example:0x10',
    'https://kube.example.',
  ]) {
    assert.ok(!isCanonicalOrigin(bad), bad);
  }
  for (const ok of ['app', 'a_b.c-d', 'example.com/app', 'a.b.c/x_y']) assert.ok(isLabelKey(ok), ok);
  for (const bad of ['', '_app', 'app_', 'Example.com/app', 'a/b/c', '/app', 'example.com/', 'x'.repeat(64)])
    assert.ok(!isLabelKey(bad), bad);
  assert.ok(isNamespace('a-1') && !isNamespace('-a') && !isNamespace('a'.repeat(64)));
  assert.ok(isServiceName('a1') && !isServiceName('1a'));
  assert.ok(isPortName('http') && isPortName('h-2') && !isPortName('h-') && !isPortName('a'.repeat(16)) && !isPortName('2h'));
  for (const ok of ['10.0.0.1', '0.0.0.0']) assert.ok(isCanonicalAddress(ok, 'IPv4'), ok);
  for (const bad of ['010.0.0.1', '10.0.0', 'pod.example', '::1', ' 10.0.0.1']) assert.ok(!isCanonicalAddress(bad, 'IPv4'), bad);
  for (const ok of ['2001:db8::1', '::1', 'fe80::1:2']) assert.ok(isCanonicalAddress(ok, 'IPv6'), ok);
  for (const bad of ['2001:DB8::1', '2001:db8:0:0:0:0:0:1', '::ffff:10.0.0.1', '::ffff:a00:1', '10.0.0.1', 'fe80::1%eth0'])
    assert.ok(!isCanonicalAddress(bad, 'IPv6'), bad);
});
