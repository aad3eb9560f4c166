// What `fleetproof certify` accepts: its summary and flags, as data. The
// dispatcher (main.ts) reads this alone for --help and to refuse an unknown
// flag, so it imports only what loads at once: never the command's module, nor
// a package a run needs (cli/test/answers-from-flags.test.ts).
import { reportDirFlag, type FlagSpec } from '../args.ts';
import { AUTH_FLAGS, BUDGET_FLAG, NEMESIS_FLAGS, VARIANT_FLAG } from './shared.ts';

export const summary = 'certify a registry: conformance, properties, faults and load in one signed report';

export const FLAGS = {
  target: { type: 'string', description: 'base URL of the registry to certify (default: start the reference in-process)' },
  key: {
    type: 'string',
    description:
      'private Ed25519 JWK the target trusts (with --target); without it --token-cmd or --header authenticate, and the cases that need it skip',
  },
  ...AUTH_FLAGS,
  store: { type: 'string', description: 'store of the embedded reference: memory or postgres', default: 'memory' },
  variant: VARIANT_FLAG,
  profile: { type: 'string', description: 'load profile: smoke, aip-fleet-slo-v1 or sustained', default: 'smoke' },
  'report-dir': reportDirFlag("folder for the run's reports and bundle (default reports/runs/<run id>)"),
  'sign-key': { type: 'string', description: 'private Ed25519 JWK that signs bundle.json (default: a fresh key, published beside it)' },
  budget: BUDGET_FLAG,
  'keep-data': {
    type: 'boolean',
    description:
      "leave the run's records as they are instead of retiring them (certify: its conformance stage's, so each failure's curl replays against them; the report gives the command that retires them later)",
  },
  ...NEMESIS_FLAGS,
  'faults-duration': {
    type: 'string',
    description: 'keep the faults stage going at least this long (90s, 5m); default: until three faults fell inside it',
  },
} satisfies Record<string, FlagSpec>;
