// What `fleetproof properties` accepts: its summary and flags, as data. The
// dispatcher (main.ts) reads this alone for --help and to refuse an unknown
// flag, so it imports only what loads at once: never the command's module, nor
// a package a run needs (cli/test/answers-from-flags.test.ts).
import { reportDirFlag, type FlagSpec } from '../args.ts';
import { AUTH_FLAGS, BUDGET_FLAG, DEFECT_FLAG, NEMESIS_FLAGS, VARIANT_FLAG } from './shared.ts';

export const summary = 'run the property suites against a store or a registry over HTTP';

export const FLAGS = {
  store: { type: 'string', description: 'memory or postgres (the reference stores, in process)' },
  variant: VARIANT_FLAG,
  target: { type: 'string', description: 'base URL of a registry to test over HTTP instead of a store' },
  key: {
    type: 'string',
    description: 'private Ed25519 JWK that mints the tokens the target trusts (with --target, unless --token-cmd or --header authenticate)',
  },
  ...AUTH_FLAGS,
  'pg-url': { type: 'string', description: 'PostgreSQL URL for --store postgres (default $PG_URL, else an embedded server)' },
  runs: { type: 'string', description: 'runs per suite (default: each suite’s count for the target)' },
  seed: { type: 'string', description: 'seed to run or replay with (default: $FC_SEED, derived in CI, else random)' },
  path: { type: 'string', description: 'counterexample path to replay; needs exactly one --suite' },
  suite: { type: 'string', multiple: true, description: 'run only this suite; repeatable' },
  'report-dir': reportDirFlag('folder for result.json and the reports (default reports/runs/<run id>)'),
  'request-timeout-ms': { type: 'string', description: 'after this long an HTTP request is indeterminate', default: '10000' },
  defect: { ...DEFECT_FLAG, description: `${DEFECT_FLAG.description}, in the in-process store` },
  budget: BUDGET_FLAG,
  ...NEMESIS_FLAGS,
} satisfies Record<string, FlagSpec>;
