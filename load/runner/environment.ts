// What a load report says about where it ran: harness version and commit,
// engine, the target's GET /version, and the load machine.
import { cpus, platform, release, totalmem } from 'node:os';
import { harnessProvenance } from '../../client/provenance.ts';
import type { EngineInfo } from './engines.ts';

export interface LoadEnvironment {
  harness: { name: string; version: string; commit: string | null; dirty: boolean | null };
  engine: EngineInfo;
  target: { url: string; version: unknown };
  machine: { cpu_model: string; cpus: number; memory_bytes: number; platform: string; node: string };
}

export function captureEnvironment(engine: EngineInfo, targetUrl: string, version: unknown): LoadEnvironment {
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
    },
  };
}
