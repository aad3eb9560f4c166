// Live progress of the property suites. On a terminal: a bar over the runs
// planned, with a count per verdict, the suite running and the time left,
// redrawn in place, and each suite that did not hold printed above it in
// full. Elsewhere (CI logs, pipes): each suite that did not hold and one
// closing line; suites that hold are counted, not listed.
import { bar, counted, eta, seconds, statusLine, type StatusLine } from '../../client/terminal.ts';
import type { SuiteName } from '../suites/index.ts';
import { summaryLine, type PropertiesProgress, type SuiteResult } from './run-properties.ts';

interface Stream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/**
 * How far a run of the suites is, in runs: a finished suite counts all its
 * planned runs, the running one the runs it opened so far (shrinking opens
 * more, so at most its plan).
 */
export function runTally() {
  const plan = new Map<SuiteName, number>();
  let running: SuiteName | null = null;
  let opened = 0;
  let done = 0;
  const results: SuiteResult[] = [];
  const total = () => [...plan.values()].reduce((n, r) => n + r, 0);
  return {
    results,
    planned(suites: { name: SuiteName; runs: number }[]) {
      for (const s of suites) plan.set(s.name, s.runs);
    },
    suiteStarted(name: SuiteName) {
      running = name;
      opened = 0;
    },
    runStarted() {
      opened += 1;
    },
    suiteFinished(r: SuiteResult) {
      done += plan.get(r.name) ?? 0;
      results.push(r);
      running = null;
    },
    running: () => running,
    suites: () => plan.size,
    share: () => (total() > 0 ? (done + Math.min(opened, running ? (plan.get(running) ?? 0) : 0)) / total() : 0),
    /** `3 pass, 1 fail, 0 error`. */
    counts: () => (['pass', 'fail', 'error'] as const).map((s) => `${results.filter((r) => r.status === s).length} ${s}`).join(', '),
  };
}

/** A suite that did not hold, as the lines that stay above the bar or in the log. */
export function suiteProblem(r: SuiteResult, prefix = ''): string[] {
  const why = r.violation ? `${r.violation.property}: ${r.violation.message}` : (r.error ?? '');
  return [`${prefix}${summaryLine(r)}`, ...(why ? [`  ${why}`] : [])];
}

/** The progress of one run of the suites, from the first suite to the closing line. */
export function propertiesProgress(stream: Stream = process.stdout, tty = Boolean(stream.isTTY)): PropertiesProgress {
  const tally = runTally();
  let started = Date.now();
  const line = () => {
    const elapsed = Date.now() - started;
    const left = eta(elapsed, tally.share());
    const running = tally.running();
    return `${bar(tally.share())} ${tally.results.length}/${tally.suites()} properties  ${tally.counts()}${running ? `  ${running}` : ''}  ${seconds(elapsed / 1000)}${left ? `, ${left}` : ''}`;
  };
  const live: StatusLine = statusLine(stream, line, tty);
  return {
    planned(suites) {
      tally.planned(suites);
      started = Date.now();
      live.start();
    },
    suiteStarted(name) {
      tally.suiteStarted(name);
      live.redraw();
    },
    runStarted: tally.runStarted,
    suiteFinished(r) {
      tally.suiteFinished(r);
      if (r.status !== 'pass') live.above(suiteProblem(r));
      else live.redraw();
    },
    finished() {
      live.end();
      const runs = tally.results.reduce((n, r) => n + r.runs, 0);
      stream.write(
        `${counted(tally.results.length, 'property', 'properties')}, ${counted(runs, 'run')}: ${tally.counts()} in ${seconds((Date.now() - started) / 1000)}\n`,
      );
    },
  };
}
