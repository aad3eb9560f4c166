// Change a binding, or create one ([records-binding-*], [revision-advances]):
// priority, enabled, credential rotation or quota policy, with a revision
// that moves forward or not. Bindings that reference an instance of another
// tenant's or a capability its version lacks are refused.
import fc from 'fast-check';
import type { CapabilityBinding } from '../../../contract/records.ts';
import type { RunContext } from '../../targets/target.ts';
import { performWrite, RegistryCommand } from '../command-support.ts';
import { bindingKey } from '../model-state.ts';
import type { RegistryModel } from '../registry-model.ts';
import { putBinding } from '../rules/records.ts';
import type { Bindable, FleetLayout } from '../../targets/fleet-layout.ts';
import { builders } from '../../targets/universe.ts';
import { describeStep, revisionStep, type RevisionStep } from './revision-step.ts';

export const BINDING_CHANGES = [
  'raise-priority',
  'lower-priority',
  'enable',
  'disable',
  'rotate-credential',
  'quota-tight',
  'quota-roomy',
  'quota-implicit',
] as const;
export type BindingChange = (typeof BINDING_CHANGES)[number];

function applyChange(b: CapabilityBinding, change: BindingChange, m: RegistryModel): CapabilityBinding {
  switch (change) {
    case 'raise-priority':
      return { ...b, priority: Math.max(0, b.priority - 1) };
    case 'lower-priority':
      return { ...b, priority: b.priority + 1 };
    case 'enable':
    case 'disable':
      return { ...b, enabled: change === 'enable' };
    case 'rotate-credential':
      return { ...b, credential_revision_ref: m.u.credential(b.policy_revision + 1) };
    case 'quota-tight':
    case 'quota-roomy':
      return { ...b, quota_policy_ref: m.u.policy(change === 'quota-tight' ? 'tight' : 'roomy') };
    case 'quota-implicit':
      return { ...b, quota_policy_ref: null };
  }
}

export class PutBindingCommand extends RegistryCommand {
  constructor(
    readonly binding: Bindable,
    readonly change: BindingChange,
    readonly step: RevisionStep,
  ) {
    super();
  }

  check(): boolean {
    return true;
  }

  protected async act(m: RegistryModel, run: RunContext): Promise<void> {
    const { tenant, capability, instance } = this.binding;
    const fresh = builders.binding(m.u.tenant(tenant), m.u.capability(capability), m.u.instance(instance), {
      credential_revision_ref: m.u.credential(1),
      policy_revision: 0,
    });
    const existing = m.s.bindings[bindingKey(fresh)];
    const base = existing ?? fresh;
    const record = { ...applyChange(base, this.change, m), policy_revision: Math.max(0, base.policy_revision + this.step) };
    await performWrite(
      m,
      run,
      this.toString(),
      true,
      (s) => putBinding(s, record),
      () => run.store.putBinding(record),
    );
  }

  toString(): string {
    const { tenant, capability, instance } = this.binding;
    return `put binding tenant-${tenant}/${capability}/${instance}: ${this.change} (${describeStep('policy_revision', this.step)})`;
  }
}

export const putBindingCommand = (layout: FleetLayout) =>
  fc
    .tuple(fc.constantFrom(...layout.bindable), fc.constantFrom(...BINDING_CHANGES), revisionStep())
    .map(([b, c, s]) => new PutBindingCommand(b, c, s));
