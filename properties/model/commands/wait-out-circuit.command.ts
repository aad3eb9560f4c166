// Wait until the latest open circuit's period has passed ([circuit-half-open]),
// on any target: a driven clock jumps there, a registry's own clock is waited
// for in real time, which is why the suites' short-circuit policy opens for a
// fraction of a second. Circuits open for longer than a few seconds are not
// waited for on a real clock.
import fc from 'fast-check';
import type { RunContext } from '../../targets/target.ts';
import { RegistryCommand } from '../command-support.ts';
import type { RegistryModel } from '../registry-model.ts';

const LONGEST_REAL_WAIT_MS = 3_000;

export class WaitOutCircuitCommand extends RegistryCommand {
  check(m: Readonly<RegistryModel>): boolean {
    return Object.values(m.s.replicas).some((r) => r.openUntil > 0);
  }

  protected async act(m: RegistryModel, run: RunContext): Promise<void> {
    const until = Math.max(...Object.values(m.s.replicas).map((r) => r.openUntil + r.openUntilSpan));
    if (run.clock.manual || until - run.clock.now() <= LONGEST_REAL_WAIT_MS) await run.clock.waitUntil(until);
  }

  toString(): string {
    return 'wait until open circuits may close';
  }
}

export const waitOutCircuitCommand = () => fc.constant(null).map(() => new WaitOutCircuitCommand());
