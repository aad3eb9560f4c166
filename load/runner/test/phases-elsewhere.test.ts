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

test('the whole test, as one part of one or with no segment at all, holds every phase', () => {
  assert.deepEqual(phasesElsewhere(plan, chooseSegment('0:1')), []);
  assert.deepEqual(phasesElsewhere(plan, null), []);
});

test('whatever the split, every phase runs in some part, and a one-iteration phase in exactly one', () => {
  const splits = [
    ['0:1/3', '1/3:1'].map((s) => chooseSegment(s, '0,1/3,1')),
    ['0:1/5', '1/5:2/5', '2/5:3/5', '3/5:4/5', '4/5:1'].map((s) => chooseSegment(s)),
  ];
  for (const parts of splits) {
    const held = profile.phases
      .map((p) => p.name)
      .filter((name) => name !== 'seed')
      .map((name) => [name, parts.filter((part) => !phasesElsewhere(plan, part).includes(name)).length] as const);
    for (const [name, count] of held) {
      if (qualification.includes(name)) assert.equal(count, 1, `${name} over ${parts.length} parts`);
      else assert.ok(count >= 1, `${name} runs in no part of ${parts.length}`);
    }
  }
});
