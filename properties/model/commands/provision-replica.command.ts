// Provision a replica in one of an instance's slots ([records-replica-provision],
// [revision-stable]): at the instance's current version it joins the fleet
// and may take new routes — the "better replica" that must never move a
// pinned action; at another version it is refused; an existing slot is
// compared with the replica as it now stands.
import fc from 'fast-check';
import type { FleetLayout } from '../../targets/fleet-layout.ts';
import type { RunContext } from '../../targets/target.ts';
import { performWrite, RegistryCommand } from '../command-support.ts';
import type { RegistryModel } from '../registry-model.ts';
import { provisionReplica } from '../rules/records.ts';
import { LEASE_MS, replicaRecord } from '../seed-fleet.ts';
import { describeReplica, replicaChoice, type ReplicaChoice } from './replica-choice.ts';

export class ProvisionReplicaCommand extends RegistryCommand {
  constructor(
    readonly replica: ReplicaChoice,
    readonly atCurrentVersion: boolean,
  ) {
    super();
  }

  check(): boolean {
    return true;
  }

  protected async act(m: RegistryModel, run: RunContext): Promise<void> {
    const instance = m.s.instances[m.u.instance(this.replica.instance)]!;
    const type = instance.connector_type_id;
    const other = m.u.layout.versionKeys
      .map((v) => m.u.version(v))
      .find((v) => v !== instance.version_id && m.s.versions[v]!.type === type);
    const versionId = this.atCurrentVersion || other === undefined ? instance.version_id : other;
    const record = replicaRecord(m.u, this.replica.instance, this.replica.slot, versionId, run.clock.now() + LEASE_MS);
    await performWrite(
      m,
      run,
      this.toString(),
      false,
      (s) => provisionReplica(s, record),
      () => run.store.provisionReplica(record),
    );
  }

  toString(): string {
    return `provision replica ${describeReplica(this.replica)} at ${this.atCurrentVersion ? 'the current' : 'another'} version`;
  }
}

export const provisionReplicaCommand = (layout: FleetLayout) =>
  fc.tuple(replicaChoice(layout), fc.constantFrom(true, true, true, false)).map(([r, current]) => new ProvisionReplicaCommand(r, current));
