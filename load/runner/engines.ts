// The two engines that run load/scale.js: real k6 when it is on PATH, the
// Node runner otherwise. Both write the script's console to one file (the
// run journal), its summary to another and every metric point, in k6's
// JSON output format, to a third, so what follows does not depend on which
// engine ran.
import { spawn, spawnSync } from 'node:child_process';
import { EXIT, NODE_RUNNER_NAME, NODE_RUNNER_VERSION, runWithNodeEngine } from './node-engine/engine.ts';
import { fileURLToPath } from 'node:url';
import type { SegmentChoice } from './execution-segments.ts';

export type EngineChoice = 'auto' | 'k6' | 'node';

export interface EngineInfo {
  name: 'k6' | typeof NODE_RUNNER_NAME;
  version: string;
}

export interface EngineRun {
  engine: EngineInfo;
  /** The engine's exit code (k6's convention: 99 thresholds failed). */
  exitCode: number;
  error: string | null;
}

export const SCRIPT_PATH = fileURLToPath(new URL('../scale.js', import.meta.url));

/** `k6 version` of the k6 on PATH, or null when there is none. */
export function findK6(): string | null {
  const out = spawnSync('k6', ['version'], { encoding: 'utf8', timeout: 10_000 });
  if (out.error || out.status !== 0) return null;
  const m = /k6\s+(v[0-9][^\s]*)/.exec(out.stdout);
  return m ? m[1]! : (out.stdout.trim().split('\n')[0] ?? 'unknown');
}

export function chooseEngine(choice: EngineChoice): EngineInfo | { unavailable: string } {
  if (choice === 'node') return { name: NODE_RUNNER_NAME, version: NODE_RUNNER_VERSION };
  const k6 = findK6();
  if (k6) return { name: 'k6', version: k6 };
  if (choice === 'k6') return { unavailable: 'k6 is not on PATH' };
  return { name: NODE_RUNNER_NAME, version: NODE_RUNNER_VERSION };
}

export interface EngineRequest {
  engine: EngineInfo;
  env: Record<string, string>;
  journalPath: string;
  /** Where every metric point goes (k6 --out json=FILE); none when absent. */
  metricsPath?: string;
  /** The share of a split test this instance runs; the whole test when absent. */
  segment?: SegmentChoice;
  quiet?: boolean;
  /** Stops the test (the stage ran out of its budget): k6 is interrupted as by Ctrl-C, and killed if it lingers. */
  signal?: AbortSignal;
}

/** How long k6 may take to end its test and write its summary once interrupted. */
const K6_STOP_GRACE_MS = 30_000;

export async function runEngine(req: EngineRequest): Promise<EngineRun> {
  if (req.engine.name === NODE_RUNNER_NAME) {
    const r = await runWithNodeEngine({
      scriptPath: SCRIPT_PATH,
      env: req.env,
      consoleOutput: req.journalPath,
      ...(req.metricsPath ? { metricsOutput: req.metricsPath } : {}),
      ...(req.segment ? { segment: req.segment } : {}),
      ...(req.quiet ? { progress: () => {} } : {}),
      ...(req.signal ? { signal: req.signal } : {}),
    });
    return {
      engine: req.engine,
      exitCode: r.exitCode,
      error: r.error ?? (r.aborted && r.exitCode === EXIT.aborted ? `aborted: ${r.aborted}` : null),
    };
  }
  const args = ['run', '--log-format', 'raw', '--console-output', req.journalPath];
  if (req.metricsPath) args.push('--out', `json=${req.metricsPath}`);
  // Flags, not K6_EXECUTION_SEGMENT: k6 ignores that variable.
  if (req.segment) args.push('--execution-segment', req.segment.segment, '--execution-segment-sequence', req.segment.sequence);
  for (const [k, v] of Object.entries(req.env)) args.push('-e', `${k}=${v}`);
  args.push(SCRIPT_PATH);
  const code = await new Promise<number>((resolve) => {
    const child = spawn('k6', args, { stdio: ['ignore', req.quiet ? 'ignore' : 'inherit', req.quiet ? 'ignore' : 'inherit'] });
    let kill: NodeJS.Timeout | undefined;
    const stop = () => {
      child.kill('SIGINT');
      kill = setTimeout(() => child.kill('SIGKILL'), K6_STOP_GRACE_MS);
    };
    if (req.signal?.aborted) stop();
    else req.signal?.addEventListener('abort', stop, { once: true });
    const done = (status: number) => {
      clearTimeout(kill);
      req.signal?.removeEventListener('abort', stop);
      resolve(status);
    };
    child.on('exit', (status) => done(status ?? 1));
    child.on('error', () => done(127));
  });
  return { engine: req.engine, exitCode: code, error: code === 0 || code === 99 ? null : `k6 exited with ${code}` };
}
