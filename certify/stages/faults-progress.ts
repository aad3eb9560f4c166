// Live progress of the faults stage. On a terminal: a bar over the current
// round's runs (or, when the stage must go on for a duration, over that
// duration), the round, the faults that fell so far and the time left,
// redrawn in place, with the nemesis's events and each suite that did not
// hold printed above it. Elsewhere (CI logs, pipes): the nemesis's events
// and the suites that did not hold; rounds that passed are not listed.
import { bar, counted, eta, seconds, statusLine } from '../../client/terminal.ts';
import { runTally, suiteProblem } from '../../properties/runner/progress.ts';
import type { PropertiesProgress } from '../../properties/runner/run-properties.ts';

interface Stream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface FaultsProgress {
  /** A line of the stage's log: above the bar on a terminal, in the log elsewhere. */
  note(line: string): void;
  /** A line that only says how far the rounds are: above the bar on a terminal, left out of a log. */
  roundNote(line: string): void;
  /** Round `n` starts; `faults` holds every fault that fell so far. */
  round(n: number, faults: readonly unknown[]): PropertiesProgress;
  end(): void;
}

export function faultsProgress(
  o: { minDurationMs?: number | undefined },
  /** Where the stage's lines go without a terminal: the certification's log. */
  log: (line: string) => void,
  stream: Stream = process.stdout,
  tty = Boolean(stream.isTTY),
): FaultsProgress {
  const started = Date.now();
  let round = 0;
  let roundStarted = started;
  let faults: readonly unknown[] = [];
  let tally = runTally();
  const line = () => {
    const now = Date.now();
    // A soak knows its duration; otherwise only the round running is known: rounds go on while too few faults fell.
    const [share, since] = o.minDurationMs ? [Math.min(1, (now - started) / o.minDurationMs), started] : [tally.share(), roundStarted];
    const left = eta(now - since, share);
    const of = o.minDurationMs ? ` of at least ${seconds(o.minDurationMs / 1000)}` : '';
    const running = tally.running();
    return `${bar(share)} round ${round}${of}  ${tally.results.length}/${tally.suites()} properties  ${counted(faults.length, 'fault')} so far${running ? `  ${running}` : ''}  ${seconds((now - started) / 1000)}${left ? `, ${left}` : ''}`;
  };
  const live = statusLine(stream, line, tty);
  return {
    note: (text) => (tty ? live.above([text]) : log(text)),
    roundNote: (text) => tty && live.above([text]),
    round(n, fell) {
      round = n;
      roundStarted = Date.now();
      faults = fell;
      tally = runTally();
      const current = tally;
      return {
        planned(suites) {
          current.planned(suites);
          live.start();
        },
        suiteStarted: current.suiteStarted,
        runStarted: current.runStarted,
        suiteFinished(r) {
          current.suiteFinished(r);
          if (r.status !== 'pass') live.above(suiteProblem(r, `round ${n}: `));
          else live.redraw();
        },
        finished: () => live.redraw(),
      };
    },
    end: () => live.end(),
  };
}
