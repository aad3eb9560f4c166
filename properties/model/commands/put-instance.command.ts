// Change an instance ([records-instance-*], [revision-advances]): roll it out to
// another version (of its own type or, wrongly, of another), disable or
// enable it, or point it at another secret, with a config_revision that moves
// forward or not. Rollouts are what strand pinned retries ([pinned-replica-conditions]).
import fc from 'fast-check';
import type { ConnectorInstance } from '../../../contract/records.ts';
import type { RunContext } from '../../targets/target.ts';
import { performWrite, RegistryCommand } from '../command-support.ts';
import type { RegistryModel } from '../registry-model.ts';
import { putInstance } from '../rules/records.ts';
import type { FleetLayout, InstanceKey, VersionKey } from '../../targets/fleet-layout.ts';
import { describeStep, revisionStep, type RevisionStep } from './revision-step.ts';

export type InstanceChange = { rollout: VersionKey } | 'disable' | 'enable' | 'rotate-secret';

function applyChange(i: ConnectorInstance, change: InstanceChange, m: RegistryModel): ConnectorInstance {
  if (typeof change === 'object') return { ...i, version_id: m.u.version(change.rollout) };
  if (change === 'rotate-secret')
    return { ...i, secret_provider_ref: `${i.secret_provider_ref.replace(/#.*$/, '')}#${i.config_revision + 1}` };
  return { ...i, status: change === 'enable' ? 'enabled' : 'disabled' };
}

export class PutInstanceCommand extends RegistryCommand {
  constructor(
    readonly instance: InstanceKey,
    readonly change: InstanceChange,
    readonly step: RevisionStep,
  ) {
    super();
  }

  check(): boolean {
    return true;
  }

  protected async act(m: RegistryModel, run: RunContext): Promise<void> {
    const current = m.s.instances[m.u.instance(this.instance)]!;
    const record = { ...applyChange(current, this.change, m), config_revision: Math.max(0, current.config_revision + this.step) };
    await performWrite(
      m,
      run,
      this.toString(),
      true,
      (s) => putInstance(s, record),
      () => run.store.putInstance(record),
    );
  }

  toString(): string {
    const what = typeof this.change === 'object' ? `roll out to ${this.change.rollout}` : this.change;
    return `put instance ${this.instance}: ${what} (${describeStep('config_revision', this.step)})`;
  }
}

export const putInstanceCommand = (layout: FleetLayout) =>
  fc
    .tuple(
      fc.constantFrom(...layout.instanceKeys),
      fc.constantFrom<InstanceChange>(...layout.versionKeys.map((v) => ({ rollout: v })), 'disable', 'enable', 'rotate-secret'),
      revisionStep(),
    )
    .map(([i, c, s]) => new PutInstanceCommand(i, c, s));
