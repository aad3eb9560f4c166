// Live progress of a Node runner test on the terminal: one line rewritten in
// place on a TTY, a line every few seconds otherwise.
import type { MetricStore } from './metrics.ts';
import type { ScenarioRun } from './executors.ts';
import type { ScenarioConfig } from './scenarios.ts';

type Sink = (line: string, final: boolean) => void;

function terminalSink(): Sink {
  const tty = Boolean(process.stderr.isTTY);
  let lastPlain = 0;
  return (line, final) => {
    if (tty) process.stderr.write(`\r\x1b[K${line}${final ? '\n' : ''}`);
    else if (final || Date.now() - lastPlain >= 5000) {
      lastPlain = Date.now();
      process.stderr.write(line + '\n');
    }
  };
}

/** When every scenario runs for a set time, the test's planned length; null when iterations decide it. */
function plannedSeconds(configs: ScenarioConfig[]): number | null {
  let end = 0;
  for (const c of configs) {
    const length =
      c.executor === 'ramping-arrival-rate'
        ? c.stages.reduce((n, s) => n + s.durationMs, 0)
        : c.executor === 'constant-vus' || c.executor === 'constant-arrival-rate'
          ? c.durationMs
          : null;
    if (length === null) return null;
    end = Math.max(end, c.startTimeMs + length);
  }
  return configs.length > 0 ? end / 1000 : null;
}

export class ProgressReporter {
  private readonly sink: Sink;
  private timer: NodeJS.Timeout | undefined;
  private render: (() => string) | undefined;

  constructor(sink?: Sink) {
    this.sink = sink ?? terminalSink();
  }

  stage(name: string): void {
    this.sink(`fleetproof node-runner: ${name}`, true);
  }

  start(runs: ScenarioRun[], store: MetricStore, elapsedMs: () => number, activeVus: () => number): void {
    this.render = () => {
      const requests = store.aggregate('http_reqs')?.sum ?? 0;
      const seconds = elapsedMs() / 1000;
      const running = runs
        .filter((r) => r.state === 'running')
        .map((r) => `${r.config.name} ${r.completed}${r.dropped ? ` (${r.dropped} dropped)` : ''}`);
      const done = runs.filter((r) => r.state === 'done').length;
      const planned = plannedSeconds(runs.map((r) => r.config));
      return `${seconds.toFixed(1)}s elapsed${planned === null ? '' : ` of ~${planned.toFixed(0)}s`}  scenarios ${done}/${runs.length} done  ${running.join(', ') || '-'}  VUs ${activeVus()}  requests ${requests} (${(requests / Math.max(seconds, 0.001)).toFixed(0)}/s)`;
    };
    this.timer = setInterval(() => this.sink(this.render!(), false), 1000);
    this.timer.unref();
  }

  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.sink(this.render!(), true);
  }
}
