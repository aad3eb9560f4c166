// The exit code of `fleetproof load`, k6's convention where k6 has one:
// 0 every threshold, phase check and audited invariant held; 99 the run was
// correct but crossed a threshold (k6 exits 99 when thresholds fail), so a
// pipeline can tell a performance miss from a defect; 1 a defect (a phase
// check failed or was cut at its budget, the audit found a violation); 2 the run could not start, could not run as planned (the engine
// crashed or is missing, the seed could not be written, the target went away
// mid-run) or ran but could not judge (its verdict says so: the generator
// dropped iterations, reads failed, a phase made no requests).
import { undecidedVerdict, type LoadReport } from './load-report.ts';
import { EXIT, type ExitCode } from '../../client/errors.ts';

export function loadExitCode(report: Pick<LoadReport, 'verdict' | 'reasons' | 'thresholds'>): ExitCode {
  if (undecidedVerdict(report.verdict)) return 2;
  if (report.reasons.length === 0) return 0;
  // buildLoadReport gives one reason per failed threshold and one per threshold it did not judge: any further
  // reason is something else that went wrong.
  const crossed = report.thresholds.filter((t) => !t.ok && t.not_judged === undefined).length;
  const unjudged = report.thresholds.filter((t) => t.not_judged !== undefined).length;
  return crossed > 0 && report.reasons.length - unjudged === crossed ? EXIT.thresholdsCrossed : EXIT.nonConformant;
}
