// A model-based suite: fast-check generates command sequences from a command
// mix, and each sequence runs against a fresh run of the target — seeded
// with the starting fleet, compared with the model after every command, and
// retired afterwards when the registry is shared.
import fc from 'fast-check';
import { stopOnHarnessError } from '../check/harness-errors.ts';
import { RunLeftBehind, type RunsInFlight } from '../check/runs-in-flight.ts';
import { IndeterminateOutcome, skipIndeterminateRun, type PropertyName } from '../check/violations.ts';
import { commandArbitraries, type CommandMix } from '../model/commands.ts';
import { retireRun } from '../model/retire-run.ts';
import type { RegistryModel } from '../model/registry-model.ts';
import { seedFleet } from '../model/seed-fleet.ts';
import { fleetLayout } from '../targets/fleet-layout.ts';
import type { RunContext, Target } from '../targets/target.ts';
import type { BuiltProperty, SuiteDefinition, SuiteName } from './suite.ts';

export interface ModelSuiteSpec {
  name: SuiteName;
  property: PropertyName;
  summary: string;
  mix: CommandMix;
  maxCommands?: number;
  defaultRuns: SuiteDefinition['defaultRuns'];
}

type Command = fc.AsyncCommand<RegistryModel, RunContext, boolean>;

/** The commands, each refusing to run once the check has left its run behind (runs-in-flight.ts). */
function* stoppable(commands: Iterable<Command>, runs: RunsInFlight): Iterable<Command> {
  for (const c of commands)
    yield {
      check: (m) => c.check(m),
      run: async (m, r) => {
        if (runs.stopping) throw new RunLeftBehind();
        await c.run(m, r);
      },
      toString: () => c.toString(),
    };
}

async function runSequence(target: Target, commands: Iterable<Command>): Promise<void> {
  const run = await target.openRun();
  let model: RegistryModel | undefined;
  try {
    model = await seedFleet(run);
    const seeded = model;
    await fc.asyncModelRun(() => ({ model: seeded, real: run }), commands);
  } catch (err) {
    // Seeding and retirement call the registry directly; a timeout there proves nothing either.
    if (IndeterminateOutcome.is(err)) skipIndeterminateRun(err);
    throw err;
  } finally {
    if (run.shared && model) await retireRun(model, run);
    await run.close();
  }
}

interface RanCommand {
  hasRan?: boolean;
  toString(): string;
}

export function modelSuite(spec: ModelSuiteSpec): SuiteDefinition {
  return {
    name: spec.name,
    property: spec.property,
    summary: spec.summary,
    defaultRuns: spec.defaultRuns,
    build(target, options): BuiltProperty {
      const commands = fc.commands(commandArbitraries(spec.mix, fleetLayout(target.limits)), {
        maxCommands: spec.maxCommands ?? 30,
        // Lengths spread evenly up to the maximum; the default size keeps sequences too short to reach deep states.
        size: 'max',
        ...(options.replayPath !== undefined ? { replayPath: options.replayPath } : {}),
      });
      const property = fc.asyncProperty(
        commands,
        stopOnHarnessError(options.runs.count((cmds) => runSequence(target, stoppable(cmds, options.runs)))),
      );
      return {
        check: (parameters) =>
          fc.check(property, parameters as fc.Parameters<[Iterable<fc.AsyncCommand<RegistryModel, RunContext, boolean>>]>) as Promise<
            fc.RunDetails<unknown>
          >,
        // Only the commands that ran are the counterexample; the rest were skipped by their preconditions.
        render: (counterexample) =>
          [...(counterexample as [Iterable<RanCommand>])[0]].filter((c) => c.hasRan !== false).map((c) => c.toString()),
        replayPathOf: (counterexample) => /replayPath="([^"]*)"/.exec(String((counterexample as unknown[])[0]))?.[1],
      };
    },
  };
}
