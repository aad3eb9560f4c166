// The flags several commands share, as data only: each command's table
// (flags/<command>.ts) spreads them in, and the modules that read them
// (auth-flags.ts, budget-flag.ts, nemesis-flags.ts, variant-flag.ts,
// defect-flag.ts) turn their values into what a run needs.
import { BUDGETED_STAGES } from '../../client/stage-budget.ts';
import type { FlagSpec } from '../args.ts';

/** A vendor's own authentication, on every command that talks to a target. */
export const AUTH_FLAGS = {
  'token-cmd': {
    type: 'string',
    description:
      "command printing a bearer token for {tenant} and {roles} (e.g. 'vault-token --tenant {tenant} --scope {roles}'); run without a shell, a JWT is reused until its exp",
  },
  // A header value may hold commas, so the variable holds one header per line.
  header: {
    type: 'string',
    short: 'H',
    multiple: true,
    separator: '\n',
    description: "static header on every authenticated request, 'Name: value'; repeatable",
  },
} satisfies Record<string, FlagSpec>;

/** --budget STAGE=DURATION: the most a stage of the run may take, on every command that runs a stage. */
export const BUDGET_FLAG = {
  type: 'string',
  multiple: true,
  description: `STAGE=DURATION: the most a stage may take (${BUDGETED_STAGES.join(', ')}), e.g. conformance=20m; repeatable; a stage past it ends could not judge; default scaled from what the stage runs`,
} as const satisfies FlagSpec;

/** Faults during the run, on `properties`, `load` and `certify`. */
export const NEMESIS_FLAGS = {
  nemesis: { type: 'string', description: 'break things during the run: proxy, command, builtin (comma-separated)' },
  'nemesis-interval': {
    type: 'string',
    description:
      'FAULT[/QUIET] durations of each fault and the calm after it (default 3s/5s; certify 2s/2s, so that faults fall inside its suites)',
  },
  'nemesis-seed': {
    type: 'string',
    description:
      "seed of the fault schedule: when each fault falls, which comes first, what the proxy disturbs (default: the suites' --seed, else a random seed, printed)",
  },
  'nemesis-cmd': {
    type: 'string',
    multiple: true,
    description: "NAME='COMMAND' for --nemesis command: storage-down, storage-up, process-kill, process-start; repeatable",
  },
} satisfies Record<string, FlagSpec>;

/** The same setting for every command that starts the reference (serve, certify without --target, properties --store). */
export const VARIANT_FLAG = {
  type: 'string',
  description:
    'start the reference as the variant this seed (0 to 4294967295) draws: every limit and open choice from its legal range, named in GET /version',
} as const satisfies FlagSpec;

/** The variable without which `--defect` is refused (defect-flag.ts). */
export const ALLOW_DEFECTS = 'FLEETPROOF_ALLOW_DEFECTS';

/** A deliberate defect built into the reference, on `serve` and `properties`. */
export const DEFECT_FLAG = {
  type: 'string',
  // Never from a variable or a config file: a broken registry is asked for on the command line or not at all.
  flagOnly: true,
  description: `deliberate defect to build into the reference, by name (development only: needs ${ALLOW_DEFECTS}=1)`,
} satisfies FlagSpec;
