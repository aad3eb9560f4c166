// Move a version between admitted and active, or revoke it for good
// ([records-version-status], [revision-advances]). Activating alpha-2 is what
// makes a rollout visible; revoking strands every route pinned to the version.
import fc from 'fast-check';
import type { VersionStatus } from '../../../contract/records.ts';
import type { RunContext } from '../../targets/target.ts';
import { performWrite, RegistryCommand } from '../command-support.ts';
import type { RegistryModel } from '../registry-model.ts';
import { setVersionStatus } from '../rules/records.ts';
import type { FleetLayout, VersionKey } from '../../targets/fleet-layout.ts';

export class SetVersionStatusCommand extends RegistryCommand {
  constructor(
    readonly version: VersionKey,
    readonly status: VersionStatus,
  ) {
    super();
  }

  check(): boolean {
    return true;
  }

  protected async act(m: RegistryModel, run: RunContext): Promise<void> {
    const id = m.u.version(this.version);
    await performWrite(
      m,
      run,
      this.toString(),
      true,
      (s) => setVersionStatus(s, id, this.status),
      () => run.store.setVersionStatus(id, this.status),
    );
  }

  toString(): string {
    return `set version ${this.version} ${this.status}`;
  }
}

/** Revocation is terminal, so it is drawn rarely enough to leave sequences something to do. */
export const setVersionStatusCommand = (layout: FleetLayout) =>
  fc
    .tuple(fc.constantFrom(...layout.versionKeys), fc.constantFrom<VersionStatus>('active', 'active', 'admitted', 'admitted', 'revoked'))
    .map(([v, s]) => new SetVersionStatusCommand(v, s));
