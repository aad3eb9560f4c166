// Scripted replies for the fixture executor: the two lists a snapshot reads
// and the two watch streams an observation opens.
import type { KubernetesBinding } from '../../binding.ts';
import { WatchStream, type FixtureReply } from './fixture-executor.ts';
import { listOf, serviceObject } from './objects.ts';

export interface ListSpec {
  /** The Service item; null for none. Default: the bound Service. */
  service?: Record<string, unknown> | null;
  slices?: Record<string, unknown>[];
  serviceRv?: string;
  sliceRv?: string;
}

export function listReplies(b: KubernetesBinding, spec: ListSpec = {}): [FixtureReply, FixtureReply] {
  const service = spec.service === undefined ? serviceObject(b) : spec.service;
  return [
    { status: 200, json: listOf(service ? [service] : [], spec.serviceRv ?? 'service-rv', 'ServiceList') },
    { status: 200, json: listOf(spec.slices ?? [], spec.sliceRv ?? 'slice-rv', 'EndpointSliceList') },
  ];
}

export interface OpenWatches {
  service: WatchStream;
  slices: WatchStream;
  replies: FixtureReply[];
}

/** Both lists followed by two open watch streams the test can write into. */
export function observeReplies(b: KubernetesBinding, spec: ListSpec = {}): OpenWatches {
  const service = new WatchStream();
  const slices = new WatchStream();
  return { service, slices, replies: [...listReplies(b, spec), { status: 200, body: service }, { status: 200, body: slices }] };
}
