// A replica's health report ([records-replica-health], [records-replica-capacity],
// [revision-stable]): more or less capacity, a renewed lease, or the same
// state again, with a health_revision that moves forward or not. Capacity
// below the replica's active assignments is refused.
import fc from 'fast-check';
import type { FleetLayout } from '../../targets/fleet-layout.ts';
import type { HealthReport } from '../../../contract/records.ts';
import type { RunContext } from '../../targets/target.ts';
import { performWrite, RegistryCommand } from '../command-support.ts';
import type { RegistryModel } from '../registry-model.ts';
import { reportHealth } from '../rules/records.ts';
import { LEASE_MS } from '../seed-fleet.ts';
import { describeReplica, replicaChoice, replicaId, type ReplicaChoice } from './replica-choice.ts';
import { describeStep, revisionStep, type RevisionStep } from './revision-step.ts';

export const HEALTH_CHANGES = ['capacity-up', 'capacity-down', 'renew-lease', 'same-state'] as const;
export type HealthChange = (typeof HEALTH_CHANGES)[number];

export class ReportHealthCommand extends RegistryCommand {
  constructor(
    readonly replica: ReplicaChoice,
    readonly change: HealthChange,
    readonly step: RevisionStep,
  ) {
    super();
  }

  check(m: Readonly<RegistryModel>): boolean {
    return m.s.replicas[replicaId(m, this.replica)] !== undefined;
  }

  protected async act(m: RegistryModel, run: RunContext): Promise<void> {
    const id = replicaId(m, this.replica);
    const h = m.s.replicas[id]!.health;
    const report: HealthReport = { ...h, health_revision: Math.max(0, h.health_revision + this.step) };
    if (this.change === 'capacity-up') report.capacity = h.capacity + 1;
    if (this.change === 'capacity-down') report.capacity = Math.max(1, h.capacity - 1);
    if (this.change === 'renew-lease') report.lease_expires_at = new Date(run.clock.now() + LEASE_MS).toISOString();
    await performWrite(
      m,
      run,
      this.toString(),
      false,
      (s) => reportHealth(s, id, report),
      () => run.store.reportHealth(id, report),
    );
  }

  toString(): string {
    return `report health of ${describeReplica(this.replica)}: ${this.change} (${describeStep('health_revision', this.step)})`;
  }
}

export const reportHealthCommand = (layout: FleetLayout) =>
  fc.tuple(replicaChoice(layout), fc.constantFrom(...HEALTH_CHANGES), revisionStep()).map(([r, c, s]) => new ReportHealthCommand(r, c, s));
