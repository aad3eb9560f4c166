// What the bridge tests share: timers driven by hand, a polling wait, and a
// registry world with one routable connector instance (no replicas yet) plus
// the matching directory target and replica template.
import { setTimeout as delay } from 'node:timers/promises';
import { ManualClock } from '../../../reference/domain/time.ts';
import { T0, World, type Fleet } from '../../../reference/store/test/behaviour/world.ts';
import { MemoryStore } from '../../../reference/store/memory/memory-store.ts';
import { sequentialFenceTokens } from '../../../reference/domain/fence-token.ts';
import { createTarget, type DirectoryTarget } from '../../target.ts';
import type { ReplicaTemplate } from '../replica-template.ts';
import type { BridgeTimers } from '../timers.ts';

/** Renewal ticks and backoff sleeps that happen only when the test says. */
export class ManualTimers implements BridgeTimers {
  readonly sleeps: number[] = [];
  #periodic = new Set<() => void>();
  #sleepers: Array<() => void> = [];

  every(_ms: number, fn: () => void): () => void {
    this.#periodic.add(fn);
    return () => this.#periodic.delete(fn);
  }

  sleep(ms: number, signal: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    return new Promise((resolve) => {
      this.#sleepers.push(resolve);
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  /** Fires every periodic callback once (a renewal). */
  tick(): void {
    for (const fn of this.#periodic) fn();
  }

  get sleeping(): number {
    return this.#sleepers.length;
  }

  /** Ends every pending sleep. */
  wake(): void {
    for (const resolve of this.#sleepers.splice(0)) resolve();
  }

  get timersActive(): number {
    return this.#periodic.size;
  }
}

/** Polls `check` until it is true, failing after `timeoutMs`. */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(5);
  }
}

export const LEASE_TTL_MS = 60_000;

export function replicaTemplate(name: string, over: Partial<ReplicaTemplate> = {}): ReplicaTemplate {
  return {
    replicaIdPattern: `crepl_${name}_{uid}`,
    endpointPattern: 'http://{host}:{port}/mcp',
    peerPrincipalIdPattern: `connector/${name}/{uid}`,
    peerPrincipalKind: 'service',
    peerDidPattern: `did:web:connectors.example:${name}:{uid}`,
    trustDomain: 'connectors.example',
    transportProfile: 'aip.native.http.v1',
    topology: { region: 'global', zone: 'default', capacityClass: 'standard' },
    capacity: 10,
    leaseTtlMs: LEASE_TTL_MS,
    ...over,
  };
}

export function targetFor(fleet: Fleet): DirectoryTarget {
  return createTarget({
    instanceId: fleet.instance.id,
    versionId: fleet.version.id,
    manifestDigest: fleet.version.manifest_digest,
    canonicalEndpoint: 'https://connector.example/mcp',
    audience: 'https://connector.example',
  });
}

export interface BridgeWorld {
  clock: ManualClock;
  store: MemoryStore;
  world: World;
  fleet: Fleet;
  target: DirectoryTarget;
  template: ReplicaTemplate;
}

/** A memory registry with one enabled, bound instance and no replicas. */
export async function bridgeWorld(name: string): Promise<BridgeWorld> {
  const clock = new ManualClock(T0);
  const store = new MemoryStore({ clock: clock.now, fenceTokens: sequentialFenceTokens() });
  const world = new World(store, clock);
  const fleet = await world.fleet({ name, replicas: 0 });
  return { clock, store, world, fleet, target: targetFor(fleet), template: replicaTemplate(name) };
}
