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

/**
 * Reads one run's output, or every part's of a distributed run (its points
 * carry wall-clock times, so the parts' series line up). Null when no file
 * exists.
 */
export async function readRunOutput(paths: string | string[], testRunDurationMs: number | null): Promise<RunOutput | null> {
  const series = new TimeSeriesSink();
  const summary = new MetricSummarySink();
  let read = 0;
  for (const path of typeof paths === 'string' ? [paths] : paths) {
    try {
      await readMetricOutput(path, {
        declare: (d) => summary.declare(d),
        point: (p) => {
          series.point(p);
          summary.point(p);
        },
      });
      read++;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  return read === 0 ? null : { over_time: series.series(), metrics: summary.rows(testRunDurationMs) };
}
