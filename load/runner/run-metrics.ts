// After every run, on either engine: the run's k6 JSON output
// (metrics.ndjson) made into histograms.json, the mergeable record of what
// this instance measured, with the run's identity, so that the parts of a
// distributed run can be merged (`fleetproof report --merge`). The raw
// output stays next to it, gzipped when it outgrows RAW_METRICS_MAX_BYTES.
import { createReadStream, createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import {
  dimensionsFor,
  histogramsFromOutput,
  HISTOGRAMS_FILE,
  newInstanceId,
  writeRunHistograms,
  type RunHistograms,
  type RunIdentity,
} from '../histograms/run-histograms.ts';
import type { EngineInfo } from './engines.ts';
import type { SegmentChoice } from './execution-segments.ts';
import type { ResolvedProfile } from './scale-contract.ts';

export const METRICS_FILE = 'metrics.ndjson';
/** Raw output larger than this is kept gzipped (k6 reads and writes .gz the same way). */
export const RAW_METRICS_MAX_BYTES = 64 * 2 ** 20;

export async function writeRunMetrics(args: {
  outDir: string;
  runId: string;
  profile: ResolvedProfile;
  engine: EngineInfo;
  /** The segment both engines were handed; the whole test when absent. */
  segment?: SegmentChoice;
  target: string;
  startedAt: string;
  finishedAt: string;
  testRunDurationMs: number | null;
  loadStartedAt?: string | null;
}): Promise<{ histograms: string; raw: string; h: RunHistograms }> {
  const { profile } = args;
  const run: RunIdentity = {
    run_id: args.runId,
    instances: [newInstanceId()],
    profile: {
      name: profile.name,
      format: profile.format,
      phase_checks: profile.phase_checks,
      duration_s: profile.duration_s ?? null,
      dataset: { ...profile.dataset },
      phases: profile.phases,
      thresholds: profile.thresholds,
      overrides: profile.overrides,
      fitted: profile.fitted ?? [],
      max_dropped_iterations: profile.max_dropped_iterations ?? 0,
      budgets_judge_speed: profile.budgets_judge_speed !== false,
    },
    execution_segment: args.segment?.segment ?? '0:1',
    execution_segment_sequence: args.segment?.sequence ?? null,
    engine: { name: args.engine.name, version: args.engine.version },
    target: args.target,
    started_at: args.startedAt,
    load_started_at: args.loadStartedAt ?? null,
    finished_at: args.finishedAt,
    test_run_duration_ms: args.testRunDurationMs,
  };
  const rawPath = join(args.outDir, METRICS_FILE);
  const h = await histogramsFromOutput(rawPath, run, dimensionsFor(profile.thresholds.map((t) => t.metric)), METRICS_FILE);
  let raw = rawPath;
  if ((await stat(rawPath)).size > RAW_METRICS_MAX_BYTES) {
    raw = `${rawPath}.gz`;
    await pipeline(createReadStream(rawPath), createGzip(), createWriteStream(raw));
    await rm(rawPath);
    h.raw = { ...h.raw!, file: `${METRICS_FILE}.gz` };
  }
  const histograms = join(args.outDir, HISTOGRAMS_FILE);
  await writeRunHistograms(histograms, h);
  return { histograms, raw, h };
}
