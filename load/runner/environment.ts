// What a load report says about where it ran: harness version and commit,
// engine, the target's GET /version, and the load machine.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, platform, release, totalmem } from 'node:os';
import type { EngineInfo } from './engines.ts';
import { fileURLToPath } from 'node:url';

export interface LoadEnvironment {
  harness: { name: string; version: string; commit: string | null; dirty: boolean | null };
  engine: EngineInfo;
  target: { url: string; version: unknown };
  machine: { cpu_model: string; cpus: number; memory_bytes: number; platform: string; node: string };
}

function git(args: string[]): string | null {
  try {
    return execFileSync('git', args, { cwd: fileURLToPath(new URL('../..', import.meta.url)), encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

export function captureEnvironment(engine: EngineInfo, targetUrl: string, version: unknown): LoadEnvironment {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
  const status = git(['status', '--porcelain']);
  const cpu = cpus();
  return {
    harness: { name: pkg.name, version: pkg.version, commit: git(['rev-parse', 'HEAD']), dirty: status === null ? null : status.length > 0 },
    engine,
    target: { url: targetUrl, version },
    machine: { cpu_model: cpu[0]?.model ?? 'unknown', cpus: cpu.length, memory_bytes: totalmem(), platform: `${platform()} ${release()}`, node: process.version },
  };
}
