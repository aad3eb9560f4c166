// One part of a distributed load run: a directory one k6 instance (or the
// Node runner) wrote. `fleetproof load` leaves histograms.json, summary.json
// (its report, with the audit) and journal.ndjson there. An instance run by
// k6 directly (k6-operator) leaves its k6 JSON output — metrics.ndjson, or
// metrics.ndjson.gz — and the script's summary (engine-summary.json, or
// fleetproof-load-summary.json when FLEETPROOF_SUMMARY_FILE was not set);
// its histograms are built here from the output, its identity taken from
// the summary.
import { access, readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { readJournal, type Journal } from '../runner/journal.ts';
import { loadScaleContract } from '../runner/scale-contract.ts';
import type { LoadReport } from '../runner/load-report.ts';
import { MetricOutputError } from '../histograms/k6-json-output.ts';
import {
  dimensionsFor,
  histogramsFromOutput,
  HISTOGRAMS_FILE,
  readRunHistograms,
  RunHistograms,
  type ProfileIdentity,
  type RunIdentity,
} from '../histograms/run-histograms.ts';
import { FleetproofError } from '../../client/errors.ts';

export const METRICS_FILES = ['metrics.ndjson', 'metrics.ndjson.gz'] as const;
const SUMMARY_FILES = ['engine-summary.json', 'fleetproof-load-summary.json'] as const;

export class PartError extends FleetproofError {
  constructor(message: string, options?: ErrorOptions) {
    super('FP_ERR_RUN_PART', message, options);
  }
}

export interface RunPart {
  /** As given on the command line. */
  dir: string;
  realDir: string;
  /** What the histograms came from: histograms.json or the raw output's file name. */
  source: string;
  histograms: RunHistograms;
  /** The run's own load report (summary.json), when `fleetproof load` wrote one. */
  report: LoadReport | null;
  journal: Journal | null;
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** The name of the k6 JSON output a part's directory holds, or null. */
export async function rawOutputName(realDir: string): Promise<(typeof METRICS_FILES)[number] | null> {
  for (const f of METRICS_FILES) if (await exists(join(realDir, f))) return f;
  return null;
}

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch (err) {
    throw new PartError(`${path}: ${(err as Error).message}`);
  }
}

interface ScriptSummary {
  format: string;
  run_id: string;
  target: string;
  profile: {
    name: string;
    format: string;
    duration_s: number | null;
    max_dropped_iterations?: number;
    budgets_judge_speed?: boolean;
    phases: ProfileIdentity['phases'];
  };
  dataset: Record<string, number>;
  thresholds: { id: string; label: string; metric: string; expression: string; unit: string; source?: string }[];
  test_run_duration_ms: number | null;
  /** Absent from summaries written before the script recorded them. */
  execution_segment?: string | null;
  execution_segment_sequence?: string | null;
  started_at?: string | null;
  finished_at?: string | null;
  load_started_at?: string | null;
}

/** The identity a raw k6 instance's summary gives: its segment and times when the script recorded them. */
function identityFromSummary(s: ScriptSummary, instanceId: string): RunIdentity {
  return {
    run_id: s.run_id,
    instances: [instanceId],
    profile: {
      name: s.profile.name,
      format: s.profile.format,
      phase_checks: loadScaleContract().phase_checks,
      duration_s: s.profile.duration_s ?? null,
      dataset: s.dataset,
      phases: s.profile.phases,
      thresholds: s.thresholds.map((t) => ({
        id: t.id,
        label: t.label,
        metric: t.metric,
        expression: t.expression,
        unit: t.unit,
        ...(t.source ? { source: t.source } : {}),
      })),
      overrides: [],
      ...(s.profile.max_dropped_iterations !== undefined ? { max_dropped_iterations: s.profile.max_dropped_iterations } : {}),
      ...(s.profile.budgets_judge_speed !== undefined ? { budgets_judge_speed: s.profile.budgets_judge_speed } : {}),
    },
    execution_segment: s.execution_segment ?? null,
    execution_segment_sequence: s.execution_segment_sequence ?? null,
    engine: null,
    target: s.target,
    started_at: s.started_at ?? null,
    load_started_at: s.load_started_at ?? null,
    finished_at: s.finished_at ?? null,
    test_run_duration_ms: s.test_run_duration_ms,
  };
}

export async function readRunPart(dir: string): Promise<RunPart> {
  let realDir: string;
  try {
    realDir = await realpath(dir);
  } catch {
    throw new PartError(`${dir}: no such directory`);
  }
  const reportJson = (await exists(join(realDir, 'summary.json'))) ? await readJson(join(realDir, 'summary.json')) : null;
  const report = (reportJson as { format?: string } | null)?.format === 'fleetproof-load-report/v1' ? (reportJson as LoadReport) : null;
  const journal = (await exists(join(realDir, 'journal.ndjson'))) ? await readJournal(join(realDir, 'journal.ndjson')) : null;

  if (await exists(join(realDir, HISTOGRAMS_FILE))) {
    try {
      return {
        dir,
        realDir,
        source: HISTOGRAMS_FILE,
        histograms: await readRunHistograms(join(realDir, HISTOGRAMS_FILE)),
        report,
        journal,
      };
    } catch (err) {
      throw new PartError(`${join(dir, HISTOGRAMS_FILE)}: ${(err as Error).message}`);
    }
  }
  const output = await rawOutputName(realDir);
  if (!output) throw new PartError(`${dir} holds neither ${HISTOGRAMS_FILE} nor k6 JSON output (${METRICS_FILES.join(', ')})`);
  let summaryFile: string | undefined;
  for (const f of SUMMARY_FILES) if (!summaryFile && (await exists(join(realDir, f)))) summaryFile = f;
  if (!summaryFile)
    throw new PartError(
      `${dir}: ${output} without the script's summary (${SUMMARY_FILES.join(' or ')}) cannot say which run and profile it belongs to`,
    );
  const summary = (await readJson(join(realDir, summaryFile))) as ScriptSummary;
  if (summary.format !== 'fleetproof-load-summary/v1')
    throw new PartError(`${join(dir, summaryFile)} is not a fleetproof-load-summary/v1 document`);
  const identity = identityFromSummary(summary, '');
  try {
    const h = await histogramsFromOutput(
      join(realDir, output),
      identity,
      dimensionsFor(identity.profile.thresholds.map((t) => t.metric)),
      output,
    );
    // The same output twice is the same instance, whatever directory holds it.
    h.run.instances = [`sha256:${h.raw!.sha256}`];
    return { dir, realDir, source: output, histograms: h, report, journal };
  } catch (err) {
    throw new PartError(err instanceof MetricOutputError ? err.message : `${join(dir, output)}: ${(err as Error).message}`);
  }
}
