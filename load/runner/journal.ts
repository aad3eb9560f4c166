// Reads the run journal (load/lib/journal.js) back from the console output
// file: routes as first seen, replica observations, replicas expired on
// purpose, replicas created, raw latencies. Lines without the journal
// prefix are the script's messages for people.
import { readFile } from 'node:fs/promises';

export const JOURNAL_PREFIX = 'fleetproof-journal ';

export interface RouteFact {
  t: number;
  phase: string;
  action_id: string;
  tenant_id: string;
  replica_id: string;
  instance_id: string;
  fence_token: string;
  credential_revision_ref: string | null;
  digest: string;
  scopes: [string, string][];
}

export interface ReplicaObservation {
  t: number;
  phase: string;
  id: string;
  active: number;
  capacity: number;
}

export interface LatencyFact {
  phase: string;
  operation: string;
  ms: number[];
}

export interface PhaseTiming {
  phase: string;
  started: number;
  ms: number;
  /** False when the phase's flow threw; absent in journals written before the field existed. */
  completed?: boolean;
}

export interface IndeterminateFact {
  operation: 'resolve' | 'settle';
  action_id: string;
  /** 1-based tenant number: the plan's token for it. */
  tenant: number;
}

/** A check that failed in an iteration that got an indeterminate answer (load/lib/verify.js): not judged. */
export interface UnjudgedFact {
  phase: string;
  check: string;
}

/** An action the flows journaled before sending its resolve: a cut may leave the resolve in flight. */
export interface AttemptFact {
  action_id: string;
  /** 1-based tenant number: the plan's token for it. */
  tenant: number;
}

export interface Journal {
  /** First sighting of each action. */
  routes: Map<string, RouteFact>;
  replicaObservations: ReplicaObservation[];
  /** Replicas the run expired on purpose and saw every step of it answered: they must be offline. */
  offline: Set<string>;
  /** Replicas the run set out to expire: offline or not, as the steps that got no answer left them. */
  mayGoOffline: Set<string>;
  /** Replicas the run created beyond the seeded dataset. */
  created: Set<string>;
  latencies: LatencyFact[];
  /** Wall time of each qualification phase (one iteration each). */
  phases: PhaseTiming[];
  /** Resolves and settlements still indeterminate after the flow's retries. */
  indeterminate: IndeterminateFact[];
  unjudged: UnjudgedFact[];
  /** Every action a resolve was sent for, journaled before the request left. */
  attempts: AttemptFact[];
  /** Actions whose settlement the flows saw answered. */
  settled: Set<string>;
  /** Actions whose latest resolve was refused outright (an error answer, not an indeterminate one): it changed nothing. */
  refused: Set<string>;
  /** The script's other console lines. */
  messages: string[];
  malformed: number;
}

export function emptyJournal(): Journal {
  return {
    routes: new Map(),
    replicaObservations: [],
    offline: new Set(),
    mayGoOffline: new Set(),
    created: new Set(),
    latencies: [],
    phases: [],
    indeterminate: [],
    unjudged: [],
    attempts: [],
    settled: new Set(),
    refused: new Set(),
    messages: [],
    malformed: 0,
  };
}

export function parseJournal(text: string): Journal {
  const j = emptyJournal();
  for (const line of text.split('\n')) {
    const at = line.indexOf(JOURNAL_PREFIX);
    if (at === -1) {
      if (line.trim()) j.messages.push(line);
      continue;
    }
    let fact: Record<string, unknown>;
    try {
      fact = JSON.parse(line.slice(at + JOURNAL_PREFIX.length)) as Record<string, unknown>;
    } catch {
      j.malformed++;
      continue;
    }
    switch (fact['k']) {
      case 'route': {
        const r = fact as unknown as RouteFact;
        if (!j.routes.has(r.action_id)) j.routes.set(r.action_id, r);
        break;
      }
      case 'replica':
        j.replicaObservations.push(fact as unknown as ReplicaObservation);
        break;
      case 'offline':
        for (const id of fact['ids'] as string[]) j.offline.add(id);
        break;
      case 'may_go_offline':
        for (const id of fact['ids'] as string[]) j.mayGoOffline.add(id);
        break;
      case 'unjudged':
        j.unjudged.push(fact as unknown as UnjudgedFact);
        break;
      case 'replica_created':
        j.created.add(fact['id'] as string);
        break;
      case 'phase':
        j.phases.push(fact as unknown as PhaseTiming);
        break;
      case 'latency':
        j.latencies.push(fact as unknown as LatencyFact);
        break;
      case 'settled':
        j.settled.add(fact['action_id'] as string);
        break;
      case 'indeterminate':
        j.indeterminate.push(fact as unknown as IndeterminateFact);
        break;
      case 'attempt':
        j.attempts.push(fact as unknown as AttemptFact);
        // A resolve sent again for a settled action may reserve again: until a later settlement is answered, it is not settled.
        j.settled.delete(fact['action_id'] as string);
        j.refused.delete(fact['action_id'] as string);
        break;
      case 'refused':
        j.refused.add(fact['action_id'] as string);
        break;
      default:
        j.malformed++;
    }
  }
  return j;
}

export async function readJournal(path: string): Promise<Journal> {
  return parseJournal(await readFile(path, 'utf8').catch(() => ''));
}
