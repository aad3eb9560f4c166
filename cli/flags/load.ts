// What `fleetproof load` accepts: its summary and flags, as data. The
// dispatcher (main.ts) reads this alone for --help and to refuse an unknown
// flag, so it imports only what loads at once: never the command's module, nor
// a package a run needs (cli/test/answers-from-flags.test.ts).
import { reportDirFlag, type FlagSpec } from '../args.ts';
import { AUTH_FLAGS, BUDGET_FLAG, NEMESIS_FLAGS } from './shared.ts';

export const summary = 'run a scale qualification profile against a registry and audit it';

export const FLAGS = {
  target: { type: 'string', description: 'base URL of the registry' },
  key: { type: 'string', description: 'private Ed25519 JWK that mints the tokens the target trusts (fleetproof keys)' },
  ...AUTH_FLAGS,
  profile: { type: 'string', description: 'smoke, aip-fleet-slo-v1, sustained or breakpoint', default: 'smoke' },
  engine: { type: 'string', description: 'auto, k6 or node', default: 'auto' },
  set: {
    type: 'string',
    multiple: true,
    description: 'override a dataset dimension (tenants=10) or phase parameter (concurrent_routes.routes=200); repeatable',
  },
  phases: {
    type: 'string',
    description: 'run only these phases, comma-separated (the seed always runs); a partial run is no qualification',
  },
  duration: { type: 'string', description: 'how long the sustained phases run (90s, 5m)' },
  'report-dir': reportDirFlag('folder for the reports (default reports/runs/<run id>)'),
  budget: BUDGET_FLAG,
  quiet: { type: 'boolean', description: 'no progress output' },
  'keep-data': {
    type: 'boolean',
    description: "leave the run's records as they are (default: disable its types and take its replicas offline after the audit)",
  },
  'write-plan': {
    type: 'string',
    flagOnly: true,
    description: 'write the shared plan of a distributed run to FILE and stop (holds bearer tokens)',
  },
  plan: {
    type: 'string',
    flagOnly: true,
    description:
      'run one part of a distributed run on its shared plan (target, profile and tokens come from it); the audit waits for fleetproof report --merge --plan',
  },
  segment: {
    type: 'string',
    flagOnly: true,
    description: 'with --plan: the share of the test this part runs, a k6 execution segment (0:1/2, 1/2:1)',
  },
  'segment-sequence': {
    type: 'string',
    flagOnly: true,
    description: 'with --segment: the segments of every part (0,1/3,2/3,1); default N equal parts',
  },
  ...NEMESIS_FLAGS,
} satisfies Record<string, FlagSpec>;
