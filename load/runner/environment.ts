// What a load report says about where it ran: harness version and commit,
// engine, the target's GET /version, and the load machine with how busy it
// was, since a load run's figures are the load machine's as much as the
// registry's.
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { harnessProvenance } from '../../client/provenance.ts';
import type { EngineInfo } from './engines.ts';

export interface LoadEnvironment {
  harness: { name: string; version: string; commit: string | null; dirty: boolean | null };
  engine: EngineInfo;
  target: { url: string; version: unknown };
  machine: {
    cpu_model: string;
    cpus: number;
    memory_bytes: number;
    platform: string;
    node: string;
    /** The 1, 5 and 15 minute load averages as the run started and as it ended; absent in older reports. */
    load_average?: { at_start: number[]; at_end: number[] };
  };
}

/** The load averages now, to two decimals. */
export const loadAverageNow = () => loadavg().map((n) => Math.round(n * 100) / 100);

export function captureEnvironment(engine: EngineInfo, targetUrl: string, version: unknown, loadAtStart?: number[]): LoadEnvironment {
  const { name, version: harnessVersion, commit, dirty } = harnessProvenance();
  const cpu = cpus();
  return {
    harness: { name, version: harnessVersion, commit, dirty },
    engine,
    target: { url: targetUrl, version },
    machine: {
      cpu_model: cpu[0]?.model ?? 'unknown',
      cpus: cpu.length,
      memory_bytes: totalmem(),
      platform: `${platform()} ${release()}`,
      node: process.version,
      ...(loadAtStart ? { load_average: { at_start: loadAtStart, at_end: loadAverageNow() } } : {}),
    },
  };
}
