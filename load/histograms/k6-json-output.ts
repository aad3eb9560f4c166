// Reads k6's JSON output (`k6 run --out json=FILE`), which the Node runner
// writes in the same form: one JSON object a line, either
//   {"type":"Metric","metric":NAME,"data":{"type":"trend","contains":"time",...}}
// declaring a metric before its first point, or
//   {"type":"Point","metric":NAME,"data":{"time":RFC3339,"value":N,"tags":{...}}}.
// A file whose name ends in .gz is read through gunzip, as k6 writes it then.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { FleetproofError } from '../../client/errors.ts';

export type MetricType = 'counter' | 'gauge' | 'rate' | 'trend';
export type MetricContains = 'time' | 'data' | 'default';

export interface MetricDeclaration {
  name: string;
  type: MetricType;
  contains: MetricContains;
}

export interface MetricPoint {
  metric: string;
  value: number;
  tags: Record<string, string>;
  /** Milliseconds since the epoch, with the sub-millisecond digits the file holds. */
  timeMs: number;
}

export interface PointSink {
  declare(d: MetricDeclaration): void;
  point(p: MetricPoint): void;
}

export class MetricOutputError extends FleetproofError {
  constructor(message: string, options?: ErrorOptions) {
    super('FP_ERR_METRIC_OUTPUT', message, options);
  }
}

const TYPES = new Set(['counter', 'gauge', 'rate', 'trend']);
const FRACTION = /\.([0-9]+)/;

/** RFC 3339 with any number of fractional digits (Go writes nanoseconds) to epoch milliseconds. */
export function parseRfc3339Ms(text: string): number {
  const m = FRACTION.exec(text);
  const whole = Date.parse(m ? text.replace(FRACTION, '') : text);
  if (Number.isNaN(whole)) return NaN;
  return m ? whole + Number(`0.${m[1]}`) * 1000 : whole;
}

/** Feeds one line of the output to the sink; returns false for a blank line. */
export function readLine(line: string, sink: PointSink, where: () => string): boolean {
  if (line.trim() === '') return false;
  let o: { type?: unknown; metric?: unknown; data?: Record<string, unknown> };
  try {
    o = JSON.parse(line) as typeof o;
  } catch {
    throw new MetricOutputError(`${where()}: not JSON`);
  }
  const data = o.data ?? {};
  const metric = typeof o.metric === 'string' ? o.metric : (data['name'] as string | undefined);
  if (typeof metric !== 'string' || metric === '') throw new MetricOutputError(`${where()}: no metric name`);
  if (o.type === 'Metric') {
    const type = data['type'];
    if (typeof type !== 'string' || !TYPES.has(type)) throw new MetricOutputError(`${where()}: metric ${metric} has no known type`);
    const contains = data['contains'] === 'time' || data['contains'] === 'data' ? data['contains'] : 'default';
    sink.declare({ name: metric, type: type as MetricType, contains });
    return true;
  }
  if (o.type === 'Point') {
    const value = data['value'];
    if (typeof value !== 'number' || !Number.isFinite(value))
      throw new MetricOutputError(`${where()}: point of ${metric} has no finite value`);
    const rawTags = (data['tags'] ?? {}) as Record<string, unknown>;
    const tags: Record<string, string> = {};
    for (const [k, v] of Object.entries(rawTags)) if (v !== null && v !== undefined) tags[k] = String(v);
    const timeMs = typeof data['time'] === 'string' ? parseRfc3339Ms(data['time']) : NaN;
    if (Number.isNaN(timeMs)) throw new MetricOutputError(`${where()}: point of ${metric} has no RFC 3339 time`);
    sink.point({ metric, value, tags, timeMs });
    return true;
  }
  throw new MetricOutputError(`${where()}: type ${JSON.stringify(o.type)} is neither Metric nor Point`);
}

/** Streams a k6 JSON output file into the sink; returns its line count and the sha256 of its bytes (as stored). */
export async function readMetricOutput(path: string, sink: PointSink): Promise<{ lines: number; bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  let n = 0;
  const tap = async function* (source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      hash.update(chunk);
      bytes += chunk.length;
      yield chunk;
    }
  };
  const lines = async (source: AsyncIterable<Buffer>) => {
    const decoder = new StringDecoder('utf8');
    let rest = '';
    const handle = (line: string) => {
      n++;
      try {
        readLine(line.endsWith('\r') ? line.slice(0, -1) : line, sink, () => `${path} line ${n}`);
      } catch (err) {
        // What the sink refuses (a point before its Metric line, a metric of two types) is the file's fault too.
        throw err instanceof MetricOutputError ? err : new MetricOutputError(`${path} line ${n}: ${(err as Error).message}`);
      }
    };
    for await (const chunk of source) {
      const text = rest + decoder.write(chunk);
      let from = 0;
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
        handle(text.slice(from, nl));
        from = nl + 1;
      }
      rest = text.slice(from);
    }
    rest += decoder.end();
    if (rest !== '') handle(rest);
  };
  if (path.endsWith('.gz')) await pipeline(createReadStream(path), tap, createGunzip(), lines);
  else await pipeline(createReadStream(path), tap, lines);
  return { lines: n, bytes, sha256: hash.digest('hex') };
}
