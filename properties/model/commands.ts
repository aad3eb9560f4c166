// The command arbitraries of the model-based suites. Every suite draws from
// the same commands; each weights them toward the behaviour its property is
// about (fast-check's commands() picks uniformly, so weight is repetition).
// Commands that name records draw them from the run's fleet layout.
import type fc from 'fast-check';
import type { FleetLayout } from '../targets/fleet-layout.ts';
import type { RegistryCommand } from './command-support.ts';
import { advanceClockCommand } from './commands/advance-clock.command.ts';
import { continueCatalogWalkCommand } from './commands/continue-catalog-walk.command.ts';
import { drainReplicaCommand } from './commands/drain-replica.command.ts';
import { expireLeasesCommand } from './commands/expire-leases.command.ts';
import { lapseLeaseCommand } from './commands/lapse-lease.command.ts';
import { provisionReplicaCommand } from './commands/provision-replica.command.ts';
import { putAdmissionPolicyCommand } from './commands/put-admission-policy.command.ts';
import { putBindingCommand } from './commands/put-binding.command.ts';
import { putInstanceCommand } from './commands/put-instance.command.ts';
import { readRouteCommand } from './commands/read-route.command.ts';
import { replaySettlementCommand } from './commands/replay-settlement.command.ts';
import { reResolveActionCommand } from './commands/re-resolve-action.command.ts';
import { reportHealthCommand } from './commands/report-health.command.ts';
import { resolveConflictingActionCommand } from './commands/resolve-conflicting-action.command.ts';
import { resolveNewActionCommand } from './commands/resolve-new-action.command.ts';
import { resolveWithSmuggledTenantCommand } from './commands/resolve-with-smuggled-tenant.command.ts';
import { setTypeEnabledCommand } from './commands/set-type-enabled.command.ts';
import { setVersionStatusCommand } from './commands/set-version-status.command.ts';
import { settleAlteredAssignmentCommand } from './commands/settle-altered-assignment.command.ts';
import { settleForeignRouteCommand } from './commands/settle-foreign-route.command.ts';
import { settleRouteCommand } from './commands/settle-route.command.ts';
import { settleStaleAssignmentCommand } from './commands/settle-stale-assignment.command.ts';
import { startCatalogWalkCommand } from './commands/start-catalog-walk.command.ts';
import { waitOutCircuitCommand } from './commands/wait-out-circuit.command.ts';

export const COMMANDS = {
  'resolve-new-action': resolveNewActionCommand,
  're-resolve-action': reResolveActionCommand,
  'resolve-conflicting-action': resolveConflictingActionCommand,
  'resolve-with-smuggled-tenant': resolveWithSmuggledTenantCommand,
  'read-route': readRouteCommand,
  'settle-route': () => settleRouteCommand(),
  'settle-unknown-outcome': () => settleRouteCommand(['outcome_unknown']),
  'replay-settlement': replaySettlementCommand,
  'settle-altered-assignment': settleAlteredAssignmentCommand,
  'settle-stale-assignment': settleStaleAssignmentCommand,
  'settle-foreign-route': settleForeignRouteCommand,
  'start-catalog-walk': startCatalogWalkCommand,
  'continue-catalog-walk': continueCatalogWalkCommand,
  'put-binding': putBindingCommand,
  'put-instance': putInstanceCommand,
  'set-version-status': setVersionStatusCommand,
  'set-type-enabled': setTypeEnabledCommand,
  'put-admission-policy': putAdmissionPolicyCommand,
  'provision-replica': provisionReplicaCommand,
  'report-health': reportHealthCommand,
  'drain-replica': drainReplicaCommand,
  'lapse-lease': lapseLeaseCommand,
  'expire-leases': expireLeasesCommand,
  'advance-clock': advanceClockCommand,
  'wait-out-circuit': waitOutCircuitCommand,
} as const satisfies Record<string, (layout: FleetLayout) => fc.Arbitrary<RegistryCommand>>;

export type CommandName = keyof typeof COMMANDS;

/** A command mix: how many times each command is in the draw. */
export type CommandMix = Partial<Record<CommandName, number>>;

export function commandArbitraries(mix: CommandMix, layout: FleetLayout): fc.Arbitrary<RegistryCommand>[] {
  return (Object.entries(mix) as Array<[CommandName, number]>).flatMap(([name, weight]) =>
    Array.from({ length: weight }, () => COMMANDS[name](layout)),
  );
}

/** Every command once, routing and settlement twice: the sequential model suite. */
export const EVERY_COMMAND: CommandMix = Object.fromEntries(
  (Object.keys(COMMANDS) as CommandName[]).map((n) => [
    n,
    n === 'resolve-new-action' || n === 'settle-route' || n === 're-resolve-action' ? 2 : 1,
  ]),
);
