// The Kubernetes directory passes the provider-neutral conformance suite:
// changes are driven as slice MODIFIED lines and the terminal as a 410 ERROR
// on the Service stream.
import { createChange } from '../../change.ts';
import { createInstance } from '../../instance.ts';
import { createSnapshot } from '../../snapshot.ts';
import { describeDirectoryConformance } from '../../test/kit/conformance.ts';
import { referenceTarget, tcpEndpoint } from '../../test/kit/fixtures.ts';
import { ADDRESS_TYPE_KEY, TARGET_REF_UID_KEY } from '../binding.ts';
import { KubernetesDirectory } from '../directory.ts';
import { FixtureExecutor, WatchStream } from './support/fixture-executor.ts';
import { sliceObject, statusObject, testBinding } from './support/objects.ts';
import { listReplies } from './support/replies.ts';

const b = testBinding();
const pod = (terminating: boolean) => ({
  uid: 'pod-a',
  addresses: ['10.0.0.1'],
  conditions: { ready: !terminating, serving: true, terminating },
});
const podInstance = (terminating: boolean) =>
  createInstance({
    id: 'pod-a',
    endpoints: [tcpEndpoint('10.0.0.1')],
    ready: !terminating,
    serving: true,
    terminating,
    metadata: { [TARGET_REF_UID_KEY]: 'pod-a', [ADDRESS_TYPE_KEY]: 'IPv4' },
  });
const snapshotAt = (terminating: boolean, sliceRv: string, localOrder: number) =>
  createSnapshot({
    target: referenceTarget(),
    revision: { sourceTokens: ['service-rv', sliceRv], localOrder },
    state: 'populated',
    instances: [podInstance(terminating)],
  });

describeDirectoryConformance(
  'kubernetes',
  async () => {
    const streams: Array<{ service: WatchStream; slices: WatchStream }> = [];
    const executor = new FixtureExecutor((request) => {
      const url = new URL(request.url());
      const isService = url.pathname.endsWith('/services');
      if (url.searchParams.get('watch') !== 'true') {
        return listReplies(b, { slices: [sliceObject(b, { name: 'alpha-1', resourceVersion: 'slice-rv-1', endpoints: [pod(false)] })] })[
          isService ? 0 : 1
        ];
      }
      // Each observation opens the Service watch first, then the slice watch.
      if (isService) streams.push({ service: new WatchStream(), slices: new WatchStream() });
      const open = streams[streams.length - 1]!;
      return { status: 200, body: isService ? open.service : open.slices };
    });
    const directory = new KubernetesDirectory({ bindings: [b], executor });
    return {
      directory,
      emit: async () => {
        for (const s of streams)
          s.slices.event('MODIFIED', sliceObject(b, { name: 'alpha-1', resourceVersion: 'slice-rv-2', endpoints: [pod(true)] }));
      },
      terminate: async () => {
        for (const s of streams) s.service.event('ERROR', statusObject(410));
      },
      dispose: () => directory.close(),
    };
  },
  {
    target: referenceTarget(),
    unboundTarget: referenceTarget({ instanceId: 'cinst_unbound' }),
    initial: snapshotAt(false, 'slice-rv', 0),
    change: createChange({
      kind: 'instances_changed',
      upserts: [podInstance(true)],
      deletedInstanceIds: [],
      previousState: null,
      snapshot: snapshotAt(true, 'slice-rv-2', 1),
    }),
    terminal: { outcome: 'stale', reason: 'resource_version_expired' },
  },
);
