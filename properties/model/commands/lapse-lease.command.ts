// Report a lease that already ended ([lease-expired-not-routable]): the replica
// keeps its reported status but takes neither new routes nor retries, and
// becomes a candidate for lease expiry. The lease lies a minute in the past,
// far outside any call's time window, so even a registry with its own clock
// treats it as expired.
import type { HealthReport } from '../../../contract/records.ts';
import type { FleetLayout } from '../../targets/fleet-layout.ts';
import type { RunContext } from '../../targets/target.ts';
import { performWrite, RegistryCommand } from '../command-support.ts';
import type { RegistryModel } from '../registry-model.ts';
import { reportHealth } from '../rules/records.ts';
import { describeReplica, replicaChoice, replicaId, type ReplicaChoice } from './replica-choice.ts';

const LAPSED_BY_MS = 60_000;

export class LapseLeaseCommand extends RegistryCommand {
  constructor(readonly replica: ReplicaChoice) {
    super();
  }

  check(m: Readonly<RegistryModel>): boolean {
    return m.s.replicas[replicaId(m, this.replica)] !== undefined;
  }

  protected async act(m: RegistryModel, run: RunContext): Promise<void> {
    const id = replicaId(m, this.replica);
    const h = m.s.replicas[id]!.health;
    const report: HealthReport = {
      ...h,
      health_revision: h.health_revision + 1,
      lease_expires_at: new Date(run.clock.now() - LAPSED_BY_MS).toISOString(),
    };
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
    return `let the lease of ${describeReplica(this.replica)} lapse`;
  }
}

export const lapseLeaseCommand = (layout: FleetLayout) => replicaChoice(layout).map((r) => new LapseLeaseCommand(r));
