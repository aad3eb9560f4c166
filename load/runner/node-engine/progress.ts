// Live progress of a Node runner test, as k6 shows its own: on a TTY a block
// rewritten in place, a line for the test (elapsed, VUs, requests) and one
// per scenario with its bar, the rate it runs at (and the rate asked for),
// its VUs, iterations and dropped iterations, and the time left; elsewhere
// the same block every few seconds, so a CI log shows the run moving.
import { bar, eta, liveBlock, seconds } from '../../../client/terminal.ts';
import type { MetricStore } from './metrics.ts';
import type { ScenarioRun } from './executors.ts';
import type { ScenarioConfig } from './scenarios.ts';

type Sink = (text: string, final: boolean) => void;

/** Without a terminal, one block per this many milliseconds. */
const PLAIN_EVERY_MS = 10_000;

function terminalSink(stream: NodeJS.WriteStream = process.stderr): Sink {
  const block = stream.isTTY ? liveBlock(stream) : null;
  let lastPlain = 0;
  return (text, final) => {
    if (block) {
      block.draw(text.split('\n'));
      if (final) block.end();
    } else if (final || Date.now() - lastPlain >= PLAIN_EVERY_MS) {
      lastPlain = Date.now();
      stream.write(text + '\n');
    }
  };
}

/** How long a scenario runs when time decides it; null when its iterations do. */
function plannedMs(c: ScenarioConfig): number | null {
  if (c.executor === 'ramping-arrival-rate') return c.stages.reduce((n, s) => n + s.durationMs, 0);
  if (c.executor === 'constant-vus' || c.executor === 'constant-arrival-rate') return c.durationMs;
  return null;
}

/** The rate a scenario asks for at `atMs` into it, per second; null for the closed-model executors. */
function targetRate(c: ScenarioConfig, atMs: number): number | null {
  const perSecond = (n: number) => (n * 1000) / c.timeUnitMs;
  if (c.executor === 'constant-arrival-rate') return perSecond(c.rate);
  if (c.executor !== 'ramping-arrival-rate') return null;
  let from = c.startRate;
  let t = atMs;
  for (const s of c.stages) {
    if (t <= s.durationMs) return perSecond(from + ((s.target - from) * t) / Math.max(1, s.durationMs));
    t -= s.durationMs;
    from = s.target;
  }
  return perSecond(from);
}

function share(run: ScenarioRun, elapsedMs: number): number {
  if (run.state === 'done') return 1;
  if (run.state === 'waiting') return 0;
  const c = run.config;
  const planned = plannedMs(c);
  if (planned !== null) return Math.min(1, (elapsedMs - c.startTimeMs) / Math.max(1, planned));
  const iterations = c.executor === 'per-vu-iterations' ? c.vus * c.iterations : c.iterations;
  return Math.min(1, run.completed / Math.max(1, iterations));
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
    const width = Math.max(...runs.map((r) => r.config.name.length), 8);
    // Rates over the last redraw, as k6 shows them, not averaged over the whole run.
    const before = new Map<ScenarioRun, { completed: number; at: number }>();
    const rateOf = (run: ScenarioRun, now: number) => {
      const last = before.get(run) ?? { completed: 0, at: run.config.startTimeMs };
      before.set(run, { completed: run.completed, at: now });
      return now > last.at ? ((run.completed - last.completed) * 1000) / (now - last.at) : 0;
    };
    this.render = () => {
      const now = elapsedMs();
      const requests = store.aggregate('http_reqs')?.sum ?? 0;
      const done = runs.filter((r) => r.state === 'done').length;
      const head = `running ${seconds(now / 1000)}, ${done}/${runs.length} scenarios done, ${activeVus()} VUs, ${requests} requests`;
      const lines = runs.map((run) => {
        const c = run.config;
        const part = share(run, now);
        const name = c.name.padEnd(width);
        if (run.state === 'waiting') return `  ${name} ${bar(0)} starts at ${seconds(c.startTimeMs / 1000)}`;
        const asked = targetRate(c, now - c.startTimeMs);
        const rate = rateOf(run, now);
        const vus = run.started - run.completed - run.interrupted;
        const max = asked === null ? c.vus : c.maxVUs;
        const left = run.state === 'running' ? eta(now - c.startTimeMs, part) : 'done';
        return [
          `  ${name} ${bar(part)} ${String(Math.floor(part * 100)).padStart(3)}%`,
          run.state === 'running' ? `${rate.toFixed(1)}/s${asked === null ? '' : ` of ${asked.toFixed(1)}/s`}` : '',
          `VUs ${vus}/${max}`,
          `${run.completed} iterations`,
          `${run.dropped} dropped`,
          left,
        ]
          .filter(Boolean)
          .join('  ');
      });
      return [head, ...lines].join('\n');
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
