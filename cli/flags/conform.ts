// What `fleetproof conform` accepts: its summary and flags, as data. The
// dispatcher (main.ts) reads this alone for --help and to refuse an unknown
// flag, so it imports only what loads at once: never the command's module, nor
// a package a run needs (cli/test/answers-from-flags.test.ts).
import { CATEGORY_NAMES, FEATURES } from '../../conformance/harness/vocabulary.ts';
import { reportDirFlag, type FlagSpec } from '../args.ts';
import { AUTH_FLAGS, BUDGET_FLAG } from './shared.ts';

export const summary = 'run the conformance suite against a registry over HTTP (certify runs it with the other stages)';

export const FLAGS = {
  target: { type: 'string', description: 'base URL of the registry under test (FLEETPROOF_TARGET)' },
  key: {
    type: 'string',
    description:
      'private Ed25519 JWK the target trusts (FLEETPROOF_KEY); without it --token-cmd or --header authenticate, and the cases that need it skip',
  },
  'report-dir': reportDirFlag('folder for the reports (FLEETPROOF_REPORT_DIR; default reports/runs/<run id>/)'),
  category: {
    type: 'string',
    multiple: true,
    env: 'FLEETPROOF_CATEGORIES',
    file: 'categories',
    description: `run this category; repeatable (FLEETPROOF_CATEGORIES): ${CATEGORY_NAMES.join(', ')}`,
  },
  case: {
    type: 'string',
    multiple: true,
    env: 'FLEETPROOF_CASES',
    file: 'cases',
    description: 'run this case id; repeatable (FLEETPROOF_CASES)',
  },
  features: {
    type: 'string',
    description: `comma-separated features to test instead of those GET /version declares (FLEETPROOF_FEATURES): ${FEATURES.join(', ')}`,
  },
  concurrency: { type: 'string', description: 'cases run at once (FLEETPROOF_CONCURRENCY; default 8)' },
  'timeout-ms': {
    type: 'string',
    description:
      'time limit per request, on the whole exchange, and per case, counted from its last exchange and at most 4 times it (FLEETPROOF_TIMEOUT_MS; default 30000)',
  },
  audience: { type: 'string', description: 'aud claim of minted tokens (FLEETPROOF_AUDIENCE; default fleetproof-registry)' },
  budget: BUDGET_FLAG,
  'keep-data': {
    type: 'boolean',
    description:
      "leave the run's records as they are, listed in kept-records.json, so each failure's curl replays against them (default: retire them after the run)",
  },
  retire: {
    type: 'string',
    flagOnly: true,
    description: 'retire the records a run kept with --keep-data, listed in DIR/kept-records.json, on its --target with its credentials',
  },
  ...AUTH_FLAGS,
  list: {
    type: 'boolean',
    flagOnly: true,
    description: 'print the case ids with their clause and category (those --category and --case select), and stop',
  },
  json: { type: 'boolean', flagOnly: true, description: 'with --list: one JSON array of {id, clause, category, description}' },
} satisfies Record<string, FlagSpec>;
