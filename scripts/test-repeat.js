#!/usr/bin/env node
// npm run test:repeat -- N [filters...]: the suite N times in a row, each
// round with its own FC_SEED (consecutive from $FC_SEED, else from a random
// start, printed so a failing round can be replayed), then how often each
// test failed.
import { parseRoundsArgs, runRounds } from './test-runner/rounds.js';

const { rounds, filters } = parseRoundsArgs(process.argv.slice(2), 20);
const base = process.env['FC_SEED'] !== undefined ? Number(process.env['FC_SEED']) : Math.floor(Math.random() * 2_000_000_000);
const seedOf = (/** @type {number} */ round) => String((base + round - 1) % 2_147_483_647);
process.exit(
  await runRounds({ filters, rounds, envOf: (round) => ({ FC_SEED: seedOf(round) }), describe: (round) => `FC_SEED=${seedOf(round)}` }),
);
