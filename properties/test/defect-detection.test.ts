// The suites catch real bugs: against each deliberate defect of the reference
// (reference/defects/), the suite of the property it breaks fails
// with a violation of exactly that property, a shrunk counterexample, and a
// seed and path that replay the same counterexample. Seeds and run counts
// are fixed, so these tests do not depend on luck.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { defectNamed } from '../../reference/defects/catalogue.ts';
import { defectiveMemoryStore } from '../../reference/defects/defective.ts';
import { failureReport } from '../runner/failure-report.ts';
import { runProperties } from '../runner/run-properties.ts';
import { httpTarget } from '../targets/http-target.ts';
import { referenceMemoryTarget } from '../../cli/reference-targets.ts';
import { DEFECTS as MATRIX, type Detection } from './defect-matrix.ts';
import { startReferenceServer, type ReferenceServer } from './reference-server.ts';
import type { Target } from '../targets/target.ts';
import { testReplay } from './support.ts';

/** Bounded: enough for every defect of the matrix at its seed, small enough to stay fast. */
const RUNS = 200;
const servers: ReferenceServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

async function targetFor(d: Detection): Promise<Target> {
  const defect = await defectNamed(d.defect);
  if (defect.layer !== 'http')
    return referenceMemoryTarget({ open: (o) => defectiveMemoryStore(defect, o), named: `with defect ${defect.name}` });
  const server = await startReferenceServer({ defect: defect.name });
  servers.push(server);
  return httpTarget({ url: server.url, key: server.key });
}

describe('the suites catch the reference’s deliberate defects', () => {
  for (const d of MATRIX) {
    it(`${d.defect} fails ${d.suite} with a replayable, shrunk counterexample`, async () => {
      const target = await targetFor(d);
      try {
        const found = (await runProperties({ target, suites: [d.suite], runs: RUNS, seed: d.seed, env: {} })).suites[0]!;
        const report = failureReport(found, testReplay('properties/test/defect-detection.test.ts'));
        assert.equal(found.status, 'fail', `expected a counterexample, got ${found.status}\n${report}`);
        assert.equal(found.violation?.property, d.property, report);
        assert.ok(found.counterexample && found.counterexample.length > 0 && found.counterexample.length <= 12, report);
        const replayed = (await runProperties({ target, suites: [d.suite], seed: found.seed, path: found.path!, env: {} })).suites[0]!;
        assert.equal(replayed.status, 'fail', `the replay did not fail\n${report}`);
        assert.equal(replayed.violation?.property, d.property);
        assert.deepEqual(replayed.counterexample, found.counterexample);
      } finally {
        await target.close();
      }
    });
  }
});
