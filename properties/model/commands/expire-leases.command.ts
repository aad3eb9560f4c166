// Run bounded lease maintenance ([lease-expiry-bounded], [lease-expiry-effect]):
// at most `limit` expired replicas, earliest lease first, go offline with no
// active assignments, and every reservation on them is released with
// lease_expired — exactly once, like a settlement.
import fc from 'fast-check';
import type { RunContext } from '../../targets/target.ts';
import { observe, predict, RegistryCommand, takeBranch } from '../command-support.ts';
import type { RegistryModel } from '../registry-model.ts';
import { expireLeases } from '../rules/settlement.ts';

export class ExpireLeasesCommand extends RegistryCommand {
  constructor(readonly limit: number) {
    super();
  }

  check(): boolean {
    return true;
  }

  protected async act(m: RegistryModel, run: RunContext): Promise<void> {
    // The generated batch, within the lease-expiry batch the target declares.
    const limit = Math.min(this.limit, run.store.limits.max_expiry_batch);
    const { obs, window } = await observe(run, () => run.store.expireLeases(limit));
    const branches = predict(m.s, window, (s, now) => expireLeases(s, limit, now, window.hi));
    m.s = takeBranch(this.toString(), branches, obs, (p, v) => p.expired === v.expired).state;
  }

  toString(): string {
    return `expire leases, at most ${this.limit}`;
  }
}

export const expireLeasesCommand = () => fc.integer({ min: 1, max: 3 }).map((l) => new ExpireLeasesCommand(l));
