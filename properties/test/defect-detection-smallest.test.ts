// The suites still catch the reference's store defects when it declares every
// limit at its smallest legal value: a fleet cut to one capability per
// version, pages of one, lease maintenance one replica at a time. Fitting the
// fleet to the limits must not leave the suites unable to find what they
// find at the defaults.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LIMIT_MINIMUMS } from '../../contract/records.ts';
import { loadDefects } from '../../reference/defects/catalogue.ts';
import { defectiveMemoryStore } from '../../reference/defects/defective.ts';
import { failureReport } from '../runner/failure-report.ts';
import { runProperties } from '../runner/run-properties.ts';
import { memoryTarget } from '../targets/memory-target.ts';
import { DEFECTS } from './defect-matrix.ts';
import { testReplay } from './support.ts';

// The body limit is the HTTP server's; the memory store enforces the rest.
const { max_body_bytes: _served, ...SMALLEST } = LIMIT_MINIMUMS;
const defects = await loadDefects();

describe('the suites catch the store defects at the smallest legal limits', () => {
  for (const d of DEFECTS) {
    const defect = defects.find((x) => x.name === d.defect)!;
    if (defect.layer === 'http') continue;
    it(`${d.defect} fails ${d.suite}`, async () => {
      const target = memoryTarget({
        description: `memory store at the smallest limits with defect ${defect.name}`,
        openStore: (clock) => defectiveMemoryStore(defect, { clock, limits: SMALLEST }),
      });
      assert.equal(target.limits.max_capabilities_per_version, 1);
      const found = (await runProperties({ target, suites: [d.suite], runs: 200, seed: d.seed, env: {} })).suites[0]!;
      const report = failureReport(found, testReplay('properties/test/defect-detection-smallest.test.ts'));
      assert.equal(found.status, 'fail', `expected a counterexample, got ${found.status}\n${report}`);
      assert.equal(found.violation?.property, d.property, report);
    });
  }
});
