// The live routing state of every replica, one 64-byte row (a cache line) per
// replica in a single Float64Array. A resolve looks at every candidate of its
// (tenant, capability) — a hundred replicas in the scale fleet — and at fleet
// scale that scan is bound by memory latency, not arithmetic: a row per cache
// line makes each candidate one memory access instead of several scattered
// objects. Every value is an integer below 2^53, exact in a float64.
import type { ReplicaStatus, Topology } from '../../../contract/records.ts';
import type { ReplicaFacts } from '../../domain/eligibility.ts';

const STATUS = 0;
const LEASE = 1;
const CAPACITY = 2;
const ACTIVE = 3;
const OPEN_UNTIL = 4;
const FAILURES = 5;
const HASH = 6;
const VERSION = 7;
const STRIDE = 8;

const STATUS_NAMES: readonly ReplicaStatus[] = ['ready', 'draining', 'offline'];
const STATUS_CODES: Readonly<Record<ReplicaStatus, number>> = { ready: 0, draining: 1, offline: 2 };

export interface ReplicaRowInit {
  id: string;
  status: ReplicaStatus;
  leaseMs: number;
  capacity: number;
  hash: number;
  /** Index of the replica's version in the state's version table. */
  version: number;
  topology: Topology;
}

export class ReplicaTable {
  private rows = new Float64Array(STRIDE * 1024);
  /** Per row: the replica id and topology, read only when a comparison needs them. */
  readonly ids: string[] = [];
  readonly topologies: Topology[] = [];

  get size(): number {
    return this.ids.length;
  }

  add(init: ReplicaRowInit): number {
    const row = this.ids.length;
    if ((row + 1) * STRIDE > this.rows.length) {
      const grown = new Float64Array(this.rows.length * 2);
      grown.set(this.rows);
      this.rows = grown;
    }
    const at = row * STRIDE;
    this.rows[at + STATUS] = STATUS_CODES[init.status];
    this.rows[at + LEASE] = init.leaseMs;
    this.rows[at + CAPACITY] = init.capacity;
    this.rows[at + ACTIVE] = 0;
    this.rows[at + OPEN_UNTIL] = 0;
    this.rows[at + FAILURES] = 0;
    this.rows[at + HASH] = init.hash;
    this.rows[at + VERSION] = init.version;
    this.ids.push(init.id);
    this.topologies.push(init.topology);
    return row;
  }

  status(row: number): ReplicaStatus {
    return STATUS_NAMES[this.rows[row * STRIDE + STATUS]!]!;
  }
  leaseMs(row: number): number {
    return this.rows[row * STRIDE + LEASE]!;
  }
  capacity(row: number): number {
    return this.rows[row * STRIDE + CAPACITY]!;
  }
  active(row: number): number {
    return this.rows[row * STRIDE + ACTIVE]!;
  }
  openUntilMs(row: number): number {
    return this.rows[row * STRIDE + OPEN_UNTIL]!;
  }
  failures(row: number): number {
    return this.rows[row * STRIDE + FAILURES]!;
  }
  hash(row: number): number {
    return this.rows[row * STRIDE + HASH]!;
  }
  version(row: number): number {
    return this.rows[row * STRIDE + VERSION]!;
  }

  setHealth(row: number, status: ReplicaStatus, leaseMs: number, capacity: number): void {
    const at = row * STRIDE;
    this.rows[at + STATUS] = STATUS_CODES[status];
    this.rows[at + LEASE] = leaseMs;
    this.rows[at + CAPACITY] = capacity;
  }
  setActive(row: number, active: number): void {
    this.rows[row * STRIDE + ACTIVE] = active;
  }
  setCircuit(row: number, failures: number, openUntilMs: number): void {
    this.rows[row * STRIDE + FAILURES] = failures;
    this.rows[row * STRIDE + OPEN_UNTIL] = openUntilMs;
  }
}

/**
 * One row seen as the ReplicaFacts the domain's eligibility rules read. A
 * scan moves one cursor from row to row, so the rules stay in the domain and
 * the scan allocates nothing.
 */
export class ReplicaCursor implements ReplicaFacts {
  row = 0;
  constructor(
    private readonly table: ReplicaTable,
    private readonly versionIds: readonly string[],
  ) {}

  at(row: number): this {
    this.row = row;
    return this;
  }
  get version_id(): string {
    return this.versionIds[this.table.version(this.row)]!;
  }
  get status(): ReplicaStatus {
    return this.table.status(this.row);
  }
  get lease_expires_at_ms(): number {
    return this.table.leaseMs(this.row);
  }
  get capacity(): number {
    return this.table.capacity(this.row);
  }
  get active(): number {
    return this.table.active(this.row);
  }
  get consecutive_failures(): number {
    return this.table.failures(this.row);
  }
  get open_until_ms(): number {
    return this.table.openUntilMs(this.row);
  }
  get topology(): Topology {
    return this.table.topologies[this.row]!;
  }
}
