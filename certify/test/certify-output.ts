// `fleetproof certify` run as a user runs it, for the tests of what it prints:
// the command, its environment cleared of any target or seed, and the part
// of its output one stage printed.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/fleetproof.js', import.meta.url));
/** Four stages on a busy machine take minutes (and the load stage stretches its budgets there); within the runner's file limit. */
export const CERTIFY_MS = 520_000;
export const ENV = { FLEETPROOF_TARGET: '', FLEETPROOF_KEY: '', FLEETPROOF_CONFIG: '', FC_SEED: '', FC_PATH: '', FC_SUITE: '' };

/** The output between a stage's opening line and the next stage's. */
export function stage(output: string, name: string): string {
  const from = output.search(new RegExp(`== stage \\d/\\d: ${name} `));
  assert.ok(from >= 0, `the ${name} stage opens`);
  const next = output.slice(from + 1).search(/== stage \d\/\d: /);
  return next < 0 ? output.slice(from) : output.slice(from, from + 1 + next);
}
