// Writes one replica's health with a strictly increasing health_revision.
// The writer remembers the last revision it wrote; when it has none, or the
// registry says CONFLICT (someone else wrote, or an earlier write whose answer
// was lost did land), it reads the replica back and continues from there.
import type { ConnectorReplica, ReplicaStatus } from '../../contract/records.ts';
import { RegistryError } from '../../contract/registry-error.ts';
import type { Instance } from '../instance.ts';
import type { DirectoryTarget } from '../target.ts';
import type { LifecyclePort } from './lifecycle-port.ts';
import { healthReport, provisionFor, replicaIdFor, type ReplicaTemplate } from './replica-template.ts';

const MAX_ATTEMPTS = 3;

export interface WriteOutcome {
  replicaId: string;
  status: ReplicaStatus;
  healthRevision: number;
  provisioned: boolean;
}

const isConflict = (err: unknown): boolean => RegistryError.is(err) && err.code === 'CONFLICT';

export class HealthWriter {
  readonly #port: LifecyclePort;
  readonly #template: ReplicaTemplate;
  readonly #target: DirectoryTarget;
  /** The last health_revision this process knows the registry holds, per replica. */
  readonly #revisions = new Map<string, number>();

  constructor(port: LifecyclePort, template: ReplicaTemplate, target: DirectoryTarget) {
    this.#port = port;
    this.#template = template;
    this.#target = target;
  }

  replicaId(instanceId: string): string {
    return replicaIdFor(this.#template, instanceId);
  }

  /** Provisions the pod's replica if the registry has none, else reports health. */
  async write(instance: Instance, status: ReplicaStatus, leaseExpiresMs: number): Promise<WriteOutcome> {
    const replicaId = this.replicaId(instance.id);
    if (!this.#revisions.has(replicaId)) {
      const existing = await this.#port.getReplica(replicaId);
      if (!existing) {
        const provisioned = await this.#provision(instance, status, leaseExpiresMs);
        if (provisioned) return { replicaId, status, healthRevision: provisioned.health_revision, provisioned: true };
      } else {
        this.#revisions.set(replicaId, existing.health_revision);
      }
    }
    return this.#report(replicaId, status, leaseExpiresMs);
  }

  /** Reports health for a replica known by id only (its pod is gone). */
  async writeById(replicaId: string, status: ReplicaStatus, leaseExpiresMs: number): Promise<WriteOutcome> {
    if (!this.#revisions.has(replicaId)) {
      const existing = await this.#port.getReplica(replicaId);
      if (!existing) throw new RegistryError('NOT_FOUND', `replica ${replicaId} not found`);
      this.#revisions.set(replicaId, existing.health_revision);
    }
    return this.#report(replicaId, status, leaseExpiresMs);
  }

  async #provision(instance: Instance, status: ReplicaStatus, leaseExpiresMs: number): Promise<ConnectorReplica | null> {
    const record = provisionFor(this.#template, this.#target, instance, healthReport(this.#template, 1, status, leaseExpiresMs));
    try {
      const result = await this.#port.provisionReplica(record);
      this.#revisions.set(record.id, result.record.health_revision);
      return result.record;
    } catch (err) {
      if (!isConflict(err)) throw err;
      // Provisioned meanwhile by someone else: continue with health reports.
      const existing = await this.#port.getReplica(record.id);
      if (!existing) throw err;
      this.#revisions.set(record.id, existing.health_revision);
      return null;
    }
  }

  async #report(replicaId: string, status: ReplicaStatus, leaseExpiresMs: number): Promise<WriteOutcome> {
    let lastError: unknown;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const revision = this.#revisions.get(replicaId)! + 1;
      try {
        const result = await this.#port.reportHealth(replicaId, healthReport(this.#template, revision, status, leaseExpiresMs));
        this.#revisions.set(replicaId, result.record.health_revision);
        return { replicaId, status, healthRevision: result.record.health_revision, provisioned: false };
      } catch (err) {
        if (!isConflict(err)) throw err;
        lastError = err;
        const current = await this.#port.getReplica(replicaId);
        if (!current) throw err;
        this.#revisions.set(replicaId, current.health_revision);
      }
    }
    throw lastError;
  }
}
