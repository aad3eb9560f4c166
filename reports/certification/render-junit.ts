// JUnit XML covering every stage, for CI systems: the suites each stage's
// own command writes (same classnames and names, so CI history sees one test
// whichever command ran it), then for every stage one testcase of its own
// verdict: passed, failed with its reasons, skipped when it was not reached,
// as report.md says, or an error when it could not run. The verdict case
// carries what no suite does (the faults stage's sweep, a stage that could
// not judge all it had to), so the file is never all green when the run is not.
import type { FaultsDocument } from '../schemas/faults-result.ts';
import type { CertificationResult } from '../schemas/certification-result.ts';
import type { ConformanceResult } from '../../conformance/runner/result.ts';
import type { ResultDocument as PropertiesDocument } from '../../properties/runner/result-document.ts';
import type { LoadReport } from '../../load/runner/load-report.ts';
import { renderJunitXml, spanSeconds, type JunitSuite, type Outcome } from '../junit/junit.ts';
import { conformanceSuites } from '../conformance/junit-suites.ts';
import { loadSuite, propertiesSuite } from '../junit/suites.ts';

export interface StageDocuments {
  conformance: ConformanceResult | null;
  properties: PropertiesDocument | null;
  faults?: FaultsDocument | null;
  load: LoadReport | null;
}

function stageVerdict(stage: CertificationResult['stages'][number]): JunitSuite {
  const reason = stage.reasons.join('\n') || stage.status;
  const outcome: Outcome =
    stage.status === 'passed'
      ? { kind: 'pass' }
      : stage.status === 'skipped'
        ? { kind: 'skip', message: reason }
        : stage.status === 'failed'
          ? { kind: 'fail', message: reason, type: 'StageFailed' }
          : { kind: 'error', message: reason, type: 'CouldNotRun' };
  // Named apart from the stage's own suites (`properties`, `load`...): a suite name appears once in the file.
  return {
    name: `certify.${stage.name}`,
    seconds: stage.duration_ms / 1000,
    cases: [{ classname: `fleetproof.${stage.name}`, name: `${stage.name} stage`, seconds: stage.duration_ms / 1000, outcome }],
  };
}

export function renderCertificationJunit(r: CertificationResult, docs: StageDocuments): string {
  const suites: JunitSuite[] = [];
  for (const stage of r.stages) {
    if (stage.name === 'conformance' && docs.conformance) suites.push(...conformanceSuites(docs.conformance));
    else if (stage.name === 'properties' && docs.properties) suites.push(propertiesSuite(docs.properties));
    else if (stage.name === 'faults' && docs.faults?.properties) suites.push(propertiesSuite(docs.faults.properties, 'faults'));
    else if (stage.name === 'load' && docs.load) suites.push(loadSuite(docs.load));
    suites.push(stageVerdict(stage));
  }
  return renderJunitXml(`fleetproof certify ${r.run_id}`, suites, spanSeconds(r.started_at, r.finished_at));
}
