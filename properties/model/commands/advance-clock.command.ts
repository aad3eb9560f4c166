// Let time pass on a registry whose clock the harness drives: circuits close
// after their open period ([circuit-half-open]) and, over a long step, leases
// run out. A registry with its own clock cannot be moved, so the command does
// not run there.
import fc from 'fast-check';
import type { RunContext } from '../../targets/target.ts';
import { RegistryCommand } from '../command-support.ts';
import type { RegistryModel } from '../registry-model.ts';

export const CLOCK_STEPS_MS = [150, 400, 2_000, 30_000, 1_800_000] as const;

export class AdvanceClockCommand extends RegistryCommand {
  constructor(readonly ms: number) {
    super();
  }

  check(m: Readonly<RegistryModel>): boolean {
    return m.manualClock;
  }

  protected async act(_m: RegistryModel, run: RunContext): Promise<void> {
    run.clock.advance(this.ms);
  }

  toString(): string {
    return `let ${this.ms} ms pass`;
  }
}

export const advanceClockCommand = () => fc.constantFrom(...CLOCK_STEPS_MS).map((ms) => new AdvanceClockCommand(ms));
