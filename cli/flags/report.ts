// What `fleetproof report` accepts: its summary and flags, as data. The
// dispatcher (main.ts) reads this alone for --help and to refuse an unknown
// flag, so it imports only what loads at once: never the command's module, nor
// a package a run needs (cli/test/answers-from-flags.test.ts).
import { reportDirFlag, type FlagSpec } from '../args.ts';

export const summary = 'merge the parts of a distributed load run (--merge DIR...), or compare two runs (--compare A B)';

export const FLAGS = {
  merge: { type: 'boolean', description: 'merge the run directories given as arguments, one per k6 instance (execution segment)' },
  compare: {
    type: 'boolean',
    flagOnly: true,
    description:
      'compare two run directories given as arguments, A then B: verdicts, status changes, latency against a noise band; exit 99 when B regressed, 0 when not',
  },
  'report-dir': reportDirFlag('folder for the report (default reports/runs/merged-<run id>, or compare-<run A>-<run B>)'),
  plan: {
    type: 'string',
    description: 'the shared plan of the run (fleetproof load --write-plan): audit the target over every part, then retire the run',
  },
  'keep-data': { type: 'boolean', description: "with --plan: leave the run's records as they are after the audit" },
} satisfies Record<string, FlagSpec>;

/** The run directories, one per k6 instance, or the two runs compared. */
export const POSITIONALS = 'DIR...';
