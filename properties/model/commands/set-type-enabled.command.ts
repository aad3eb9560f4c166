// Disable or enable a connector type ([records-type-enable], [revision-advances]).
// A disabled type hides its capabilities and refuses retries pinned to it.
import fc from 'fast-check';
import type { RunContext } from '../../targets/target.ts';
import { performWrite, RegistryCommand } from '../command-support.ts';
import type { RegistryModel } from '../registry-model.ts';
import { setTypeEnabled } from '../rules/records.ts';
import { TYPES, type TypeKey } from '../../targets/universe.ts';

export class SetTypeEnabledCommand extends RegistryCommand {
  constructor(
    readonly type: TypeKey,
    readonly enabled: boolean,
  ) {
    super();
  }

  check(): boolean {
    return true;
  }

  protected async act(m: RegistryModel, run: RunContext): Promise<void> {
    const id = m.u.type(this.type);
    await performWrite(
      m,
      run,
      this.toString(),
      true,
      (s) => setTypeEnabled(s, id, this.enabled),
      () => run.store.setConnectorTypeEnabled(id, this.enabled),
    );
  }

  toString(): string {
    return `${this.enabled ? 'enable' : 'disable'} connector type ${this.type}`;
  }
}

export const setTypeEnabledCommand = () =>
  fc.tuple(fc.constantFrom(...TYPES), fc.boolean()).map(([t, e]) => new SetTypeEnabledCommand(t, e));
