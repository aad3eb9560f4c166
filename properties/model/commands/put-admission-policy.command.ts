// Change an admission policy ([records-policy-*], [admission-limits-pinned]):
// tighten or loosen its limits, disable or enable it, shorten its circuit, or
// break its bounds, with a revision that moves forward or not. Existing
// routes keep the limits they pinned; only new actions see the change.
import fc from 'fast-check';
import { SCOPE_OFF, type AdmissionPolicy } from '../../../contract/records.ts';
import type { RunContext } from '../../targets/target.ts';
import { performWrite, RegistryCommand } from '../command-support.ts';
import type { RegistryModel } from '../registry-model.ts';
import { putPolicy } from '../rules/records.ts';
import { POLICIES, type PolicyKey } from '../../targets/universe.ts';
import { describeStep, revisionStep, type RevisionStep } from './revision-step.ts';

export const POLICY_CHANGES = ['tighten', 'loosen', 'disable', 'enable', 'lower-threshold', 'out-of-bounds'] as const;
export type PolicyChange = (typeof POLICY_CHANGES)[number];

const LIMITS = [
  'max_global_in_flight',
  'max_tenant_in_flight',
  'max_connector_type_in_flight',
  'max_instance_in_flight',
  'max_binding_in_flight',
  'max_tenant_retry_in_flight',
] as const;

function applyChange(p: AdmissionPolicy, change: PolicyChange): AdmissionPolicy {
  const next = { ...p };
  switch (change) {
    case 'tighten':
    case 'loosen':
      for (const k of LIMITS) if (next[k] !== SCOPE_OFF) next[k] = Math.max(1, next[k] + (change === 'tighten' ? -1 : 1));
      return next;
    case 'disable':
    case 'enable':
      return { ...next, enabled: change === 'enable' };
    case 'lower-threshold':
      return { ...next, circuit_failure_threshold: Math.max(1, next.circuit_failure_threshold - 1) };
    case 'out-of-bounds':
      return { ...next, circuit_open_ms: 50 };
  }
}

export class PutAdmissionPolicyCommand extends RegistryCommand {
  constructor(
    readonly policy: PolicyKey,
    readonly change: PolicyChange,
    readonly step: RevisionStep,
  ) {
    super();
  }

  check(): boolean {
    return true;
  }

  protected async act(m: RegistryModel, run: RunContext): Promise<void> {
    const current = m.s.policies[m.u.policy(this.policy)]!;
    const record = { ...applyChange(current, this.change), revision: Math.max(1, current.revision + this.step) };
    await performWrite(
      m,
      run,
      this.toString(),
      true,
      (s) => putPolicy(s, record),
      () => run.store.putAdmissionPolicy(record),
    );
  }

  toString(): string {
    return `put policy ${this.policy}: ${this.change} (${describeStep('revision', this.step)})`;
  }
}

export const putAdmissionPolicyCommand = () =>
  fc
    .tuple(fc.constantFrom(...POLICIES), fc.constantFrom(...POLICY_CHANGES), revisionStep())
    .map(([p, c, s]) => new PutAdmissionPolicyCommand(p, c, s));
