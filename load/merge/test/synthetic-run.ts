// A load run's metric points made up deterministically (a seeded PRNG), and
// the helpers the merge tests share: the run's identity, splitting points
// into execution segments, writing a part's directory.
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MetricDeclaration, MetricPoint } from '../../histograms/k6-json-output.ts';
import {
  dimensionsFor,
  HISTOGRAMS_FILE,
  newInstanceId,
  RunHistograms,
  writeRunHistograms,
  type ProfileIdentity,
  type RunIdentity,
} from '../../histograms/run-histograms.ts';
import { seededRandom as prng } from '../../../client/seeded-random.ts';

/** The seeded generator of client/seeded-random.ts, under the name the merge tests use. */
export { prng };

export const PROFILE: ProfileIdentity = {
  name: 'synthetic',
  format: 'fleetproof-scale/v1',
  phase_checks: 'rate==1',
  duration_s: 60,
  dataset: { tenants: 4 },
  phases: [{ name: 'seed' }, { name: 'routes', budget_s: 30 }, { name: 'catalog', budget_s: 30 }],
  thresholds: [
    {
      id: 'route_p99',
      label: 'route p99',
      metric: 'http_req_duration{phase:routes,operation:resolve}',
      expression: 'p(99)<=40',
      unit: 'ms',
    },
    {
      id: 'route_p95',
      label: 'route p95',
      metric: 'http_req_duration{phase:routes,operation:resolve}',
      expression: 'p(95)<30',
      unit: 'ms',
    },
    {
      id: 'route_med',
      label: 'route median',
      metric: 'http_req_duration{phase:routes,operation:resolve}',
      expression: 'med<10',
      unit: 'ms',
    },
    { id: 'route_avg', label: 'route avg', metric: 'http_req_duration{phase:routes,operation:resolve}', expression: 'avg<12', unit: 'ms' },
    { id: 'catalog_p90', label: 'catalog p90', metric: 'http_req_duration{phase:catalog}', expression: 'p(90)<100', unit: 'ms' },
    {
      id: 'catalog_max',
      label: 'catalog max',
      metric: 'http_req_duration{phase:catalog,operation:catalog}',
      expression: 'max<1000',
      unit: 'ms',
    },
    { id: 'seed_min', label: 'seed min', metric: 'fleetproof_seed_duration', expression: 'min>=0', unit: 'ms' },
    { id: 'reqs', label: 'request rate', metric: 'http_reqs', expression: 'rate>10', unit: 'req/s' },
    { id: 'unexpected', label: 'unexpected', metric: 'fleetproof_unexpected_responses', expression: 'count==0', unit: 'responses' },
    { id: 'failed', label: 'failed requests', metric: 'http_req_failed{phase:routes}', expression: 'rate<0.05', unit: '' },
    { id: 'spread', label: 'spread', metric: 'fleetproof_route_spread', expression: 'value<=3', unit: 'assignments' },
  ],
  overrides: [],
};

export const DECLARATIONS: MetricDeclaration[] = [
  { name: 'http_req_duration', type: 'trend', contains: 'time' },
  { name: 'http_reqs', type: 'counter', contains: 'default' },
  { name: 'http_req_failed', type: 'rate', contains: 'default' },
  { name: 'checks', type: 'rate', contains: 'default' },
  { name: 'fleetproof_seed_duration', type: 'trend', contains: 'time' },
  { name: 'fleetproof_route_spread', type: 'gauge', contains: 'default' },
  { name: 'dropped_iterations', type: 'counter', contains: 'default' },
];

/**
 * About 30 000 points: route latencies (lognormal, with a slow tail), enough
 * to leave exact mode; a few hundred catalog reads, which stay exact; a
 * counter, rates, checks per phase and a gauge.
 */
export function syntheticPoints(seed = 7, routes = 12_000): MetricPoint[] {
  const rnd = prng(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
  const points: MetricPoint[] = [];
  let t = Date.UTC(2026, 0, 1);
  const push = (metric: string, value: number, tags: Record<string, string>) => points.push({ metric, value, tags, timeMs: (t += 0.25) });
  push('fleetproof_seed_duration', 1234.5, { phase: 'seed' });
  for (let i = 0; i < routes; i++) {
    const slow = rnd() < 0.02;
    const ms = Math.exp(2 + 0.4 * normal()) + (slow ? 30 + 40 * rnd() : 0);
    const status = rnd() < 0.01 ? '503' : '200';
    const tags = {
      phase: 'routes',
      operation: 'resolve',
      scenario: 'routes',
      group: '',
      expected_response: String(status === '200'),
      status,
      url: `http://t/v1/routes/${i}`,
    };
    push('http_req_duration', ms, tags);
    push('http_reqs', 1, tags);
    push('http_req_failed', status === '200' ? 0 : 1, tags);
    if (i % 4 === 0) push('http_req_duration', ms / 3, { ...tags, operation: 'settle' });
  }
  for (let i = 0; i < 400; i++) {
    const tags = { phase: 'catalog', operation: 'catalog', scenario: 'catalog', group: '', expected_response: 'true' };
    push('http_req_duration', Math.round(Math.exp(3 + 0.5 * normal()) * 1000) / 1000, tags);
    push('http_reqs', 1, tags);
  }
  for (const phase of ['seed', 'routes', 'catalog']) {
    for (let i = 0; i < 50; i++) push('checks', 1, { phase, check: `${phase} check ${i % 3}`, group: '' });
  }
  for (let i = 0; i < 20; i++) push('fleetproof_route_spread', Math.floor(rnd() * 4), { phase: 'routes' });
  return points;
}

export function identity(over: Partial<RunIdentity> = {}): RunIdentity {
  return {
    run_id: 'run-synthetic',
    instances: [newInstanceId()],
    profile: PROFILE,
    execution_segment: '0:1',
    execution_segment_sequence: null,
    engine: { name: 'k6', version: 'v1.0.0' },
    target: 'http://127.0.0.1:1',
    started_at: '2026-01-01T00:00:00.000Z',
    finished_at: '2026-01-01T00:01:00.000Z',
    test_run_duration_ms: 60_000,
    ...over,
  };
}

export function histogramsOf(points: MetricPoint[], run: RunIdentity): RunHistograms {
  const h = new RunHistograms(run, dimensionsFor(run.profile.thresholds.map((t) => t.metric)));
  for (const d of DECLARATIONS) h.declare(d);
  for (const p of points) h.point(p);
  return h;
}

/** k6's segment sequence for n equal parts: 0:1/n, 1/n:2/n, … */
export const equalSegments = (n: number) =>
  Array.from({ length: n }, (_, k) => `${k === 0 ? '0' : `${k}/${n}`}:${k + 1 === n ? '1' : `${k + 1}/${n}`}`);

/** Points dealt to `n` parts by `assign` (index of the part for each point). */
export function split<T>(points: T[], n: number, assign: (p: T, i: number) => number): T[][] {
  const parts: T[][] = Array.from({ length: n }, () => []);
  points.forEach((p, i) => parts[assign(p, i)]!.push(p));
  return parts;
}

export async function tempDir(prefix = 'fleetproof-merge-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** A part's directory holding only its histograms.json. */
export async function writePart(dir: string, h: RunHistograms): Promise<string> {
  await mkdir(dir, { recursive: true });
  await writeRunHistograms(join(dir, HISTOGRAMS_FILE), h);
  return dir;
}
