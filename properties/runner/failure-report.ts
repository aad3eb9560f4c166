// How a failed or erroring suite reads on a terminal: the violated property
// and why, the seed and path, the shrunk counterexample as a numbered
// script, and the command that replays it.
import { PROPERTIES } from '../check/violations.ts';
import type { SuiteResult } from './run-properties.ts';

/** The command line that replays one suite's counterexample. */
export type ReplayCommand = (suite: SuiteResult) => string;

function indent(text: string, by: string): string {
  return text
    .split('\n')
    .map((l) => by + l)
    .join('\n');
}

export function failureReport(s: SuiteResult, replay: ReplayCommand): string {
  if (s.status === 'pass') return '';
  const lines: string[] = [];
  if (s.violation) lines.push(`✗ ${s.name}: ${PROPERTIES[s.violation.property]} violated`, indent(s.violation.message, '    '));
  else lines.push(`! ${s.name}: could not be judged`, indent(s.error ?? 'unknown error', '    '));
  if (s.path !== null) lines.push(`  seed ${s.seed}, path ${s.path}`);
  if (s.counterexample) {
    lines.push(`  counterexample, shrunk ${s.shrinks} times (${s.counterexample.length} steps):`);
    s.counterexample.forEach((step, i) => lines.push(`    ${String(i + 1).padStart(2)}. ${step}`));
  }
  if (s.path !== null) lines.push(`  replay: ${replay(s)}`);
  return lines.join('\n');
}
