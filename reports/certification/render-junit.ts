// JUnit XML covering every stage, for CI systems: the suites each stage's
// own command writes (same classnames and names, so CI history sees one test
// whichever command ran it), and for a stage that did not run one testcase
// that says so: skipped when it was not reached, as report.md says, an error
// when it could not run.
import type { FaultsDocument } from '../schemas/faults-result.ts';
import type { CertificationResult } from '../schemas/certification-result.ts';
import type { ConformanceResult } from '../../conformance/runner/result.ts';
import type { ResultDocument as PropertiesDocument } from '../../properties/runner/result-document.ts';
import type { LoadReport } from '../../load/runner/load-report.ts';
import { renderJunitXml, spanSeconds, type JunitSuite } from '../junit/junit.ts';
import { conformanceSuites } from '../conformance/junit-suites.ts';
import { loadSuite, propertiesSuite } from '../junit/suites.ts';

export interface StageDocuments {
  conformance: ConformanceResult | null;
  properties: PropertiesDocument | null;
  faults?: FaultsDocument | null;
  load: LoadReport | null;
}

export function renderCertificationJunit(r: CertificationResult, docs: StageDocuments): string {
  const suites: JunitSuite[] = [];
  for (const stage of r.stages) {
    if (stage.name === 'conformance' && docs.conformance) suites.push(...conformanceSuites(docs.conformance));
    else if (stage.name === 'properties' && docs.properties) suites.push(propertiesSuite(docs.properties));
    else if (stage.name === 'faults' && docs.faults?.properties) suites.push(propertiesSuite(docs.faults.properties, 'faults'));
    else if (stage.name === 'load' && docs.load) suites.push(loadSuite(docs.load));
    else {
      const reason = stage.reasons.join('\n') || stage.status;
      const outcome = stage.status === 'skipped' ? ({ kind: 'skip', message: reason } as const) : ({ kind: 'error', message: reason, type: 'CouldNotRun' } as const);
      suites.push({ name: stage.name, seconds: stage.duration_ms / 1000, cases: [{ classname: `fleetproof.${stage.name}`, name: `${stage.name} stage`, seconds: stage.duration_ms / 1000, outcome }] });
    }
  }
  return renderJunitXml(`fleetproof certify ${r.run_id}`, suites, spanSeconds(r.started_at, r.finished_at));
}
