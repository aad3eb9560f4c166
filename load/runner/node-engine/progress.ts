// Live progress of a Node runner test on the terminal: one line rewritten in
// place on a TTY, a line every few seconds otherwise.
import type { MetricStore } from './metrics.ts';
import type { ScenarioRun } from './executors.ts';

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
      const running = runs.filter((r) => r.state === 'running').map((r) => `${r.config.name} ${r.completed}${r.dropped ? ` (${r.dropped} dropped)` : ''}`);
      const done = runs.filter((r) => r.state === 'done').length;
      return `${seconds.toFixed(1)}s  scenarios ${done}/${runs.length} done  ${running.join(', ') || '-'}  VUs ${activeVus()}  requests ${requests} (${(requests / Math.max(seconds, 0.001)).toFixed(0)}/s)`;
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
