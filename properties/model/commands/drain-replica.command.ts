// Drain a replica, take it offline, or bring it back ([records-replica-health]).
// A draining replica takes no new actions but keeps its pinned retries
// ([pinned-reacquire]); an offline one takes neither.
import fc from 'fast-check';
import type { FleetLayout } from '../../targets/fleet-layout.ts';
import type { HealthReport, ReplicaStatus } from '../../../contract/records.ts';
import type { RunContext } from '../../targets/target.ts';
import { performWrite, RegistryCommand } from '../command-support.ts';
import type { RegistryModel } from '../registry-model.ts';
import { reportHealth } from '../rules/records.ts';
import { describeReplica, replicaChoice, replicaId, type ReplicaChoice } from './replica-choice.ts';

export class DrainReplicaCommand extends RegistryCommand {
  constructor(
    readonly replica: ReplicaChoice,
    readonly status: ReplicaStatus,
  ) {
    super();
  }

  check(m: Readonly<RegistryModel>): boolean {
    return m.s.replicas[replicaId(m, this.replica)] !== undefined;
  }

  protected async act(m: RegistryModel, run: RunContext): Promise<void> {
    const id = replicaId(m, this.replica);
    const h = m.s.replicas[id]!.health;
    const report: HealthReport = { ...h, status: this.status, health_revision: h.health_revision + 1 };
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
    const verb = this.status === 'draining' ? 'drain' : this.status === 'offline' ? 'take offline' : 'make ready';
    return `${verb} replica ${describeReplica(this.replica)}`;
  }
}

export const drainReplicaCommand = (layout: FleetLayout) =>
  fc
    .tuple(replicaChoice(layout), fc.constantFrom<ReplicaStatus>('draining', 'draining', 'offline', 'ready'))
    .map(([r, s]) => new DrainReplicaCommand(r, s));
