// One pass over the run's raw metric output (metrics.ndjson) for what the
// report shows beyond the engine's summary: the run over time and the
// per-metric end-of-test table.
import { readMetricOutput } from '../histograms/k6-json-output.ts';
import { MetricSummarySink, type MetricRow } from './metric-summary.ts';
import { TimeSeriesSink, type TimeSeries } from './time-series.ts';

export interface RunOutput {
  over_time: TimeSeries;
  metrics: MetricRow[];
}

/** Null when the engine wrote no output file. */
export async function readRunOutput(path: string, testRunDurationMs: number | null): Promise<RunOutput | null> {
  const series = new TimeSeriesSink();
  const summary = new MetricSummarySink();
  try {
    await readMetricOutput(path, {
      declare: (d) => summary.declare(d),
      point: (p) => {
        series.point(p);
        summary.point(p);
      },
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  return { over_time: series.series(), metrics: summary.rows(testRunDurationMs) };
}
