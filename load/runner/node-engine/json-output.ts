// The Node runner's `--out json=FILE`: every metric point in k6's JSON
// output format, so that what reads k6's output reads the Node runner's too.
// A metric is declared by a "Metric" line before its first point:
//   {"type":"Metric","data":{"name":…,"type":"trend","contains":"time","thresholds":[…],"submetrics":null},"metric":…}
//   {"type":"Point","data":{"time":"2026-…Z","value":12.3,"tags":{…}},"metric":…}
// Lines are written a batch at a time, as the VUs hand their samples over.
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { finished } from 'node:stream/promises';
import type { Sample } from './metrics.ts';

const DATA_METRICS = new Set(['data_sent', 'data_received']);

export class JsonOutput {
  private readonly stream: WriteStream;
  private readonly declared = new Set<string>();
  /** The last tags object written and its JSON: the samples of one request share one. */
  private lastTags: Record<string, string> | null = null;
  private lastTagsJson = '';
  private failure: Error | null = null;
  private closed = false;
  lines = 0;

  constructor(
    path: string,
    /** Threshold expressions by metric name, for the Metric lines. */
    private readonly thresholds: ReadonlyMap<string, string[]> = new Map(),
  ) {
    mkdirSync(dirname(path), { recursive: true });
    this.stream = createWriteStream(path);
    this.stream.on('error', (err) => (this.failure ??= err));
  }

  write(samples: readonly Sample[]): void {
    if (samples.length === 0 || this.closed) return;
    let text = '';
    for (const s of samples) {
      if (!this.declared.has(s.metric)) {
        this.declared.add(s.metric);
        const contains = s.time ? 'time' : DATA_METRICS.has(s.metric) ? 'data' : 'default';
        text +=
          JSON.stringify({
            type: 'Metric',
            data: { name: s.metric, type: s.type, contains, thresholds: this.thresholds.get(s.metric) ?? [], submetrics: null },
            metric: s.metric,
          }) + '\n';
        this.lines++;
      }
      if (s.tags !== this.lastTags) {
        this.lastTags = s.tags;
        this.lastTagsJson = JSON.stringify(s.tags);
      }
      const tags = this.lastTagsJson;
      // The same line JSON.stringify would write for { type, data: { time, value, tags }, metric }.
      text += `{"type":"Point","data":{"time":"${new Date(s.at).toISOString()}","value":${JSON.stringify(s.value)},"tags":${tags}},"metric":${JSON.stringify(s.metric)}}\n`;
      this.lines++;
    }
    this.stream.write(text);
  }

  /** Flushes and closes the file; rejects when writing failed. */
  async close(): Promise<void> {
    this.closed = true;
    this.stream.end();
    await finished(this.stream).catch((err: Error) => (this.failure ??= err));
    if (this.failure) throw this.failure;
  }
}
