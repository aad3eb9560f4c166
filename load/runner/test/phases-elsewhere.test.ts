// Which phases a part of a distributed run holds no share of, from the plan
// and the part's segment: a qualification phase (one VU, one iteration)
// falls to one part of an even split, an arrival-rate phase is striped over
// the parts, and an unsplit run holds every phase.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RATE_PHASES } from '../../lib/options.js';
import { chooseSegment } from '../execution-segments.ts';
import { phasesElsewhere } from '../phases-elsewhere.ts';
import { buildRunPlan } from '../run-plan.ts';
import { loadScaleContract, resolveProfile } from '../scale-contract.ts';

const profile = resolveProfile(loadScaleContract(), 'smoke', []);
const plan = await buildRunPlan({ target: 'http://127.0.0.1:9', profile, key: null, auth: { headers: ['X-Api-Key: k'] }, runId: 'r1' });
/** The phases of one VU and one iteration: neither the seed (k6's setup) nor an arrival-rate phase. */
const qualification = profile.phases.map((p) => p.name).filter((name) => name !== 'seed' && !(name in RATE_PHASES));

test('of two even parts, one runs every one-iteration phase and the other none of them', () => {
  const first = phasesElsewhere(plan, chooseSegment('0:1/2'));
  const second = phasesElsewhere(plan, chooseSegment('1/2:1'));
  assert.ok(qualification.length >= 5, qualification.join());
  assert.deepEqual([first, second], [[], qualification]);
});

test('the whole test, as one part of one, holds every phase', () => {
  assert.deepEqual(phasesElsewhere(plan, chooseSegment('0:1')), []);
});
