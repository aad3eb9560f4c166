// Scenario options as k6 reads them (executors, durations, defaults), turned
// into one normalised shape the executors work from.
import { FleetproofError } from '../../../client/errors.ts';
export type ExecutorName = 'per-vu-iterations' | 'shared-iterations' | 'constant-vus' | 'constant-arrival-rate' | 'ramping-arrival-rate';

export interface ScenarioConfig {
  name: string;
  executor: ExecutorName;
  exec: string;
  startTimeMs: number;
  gracefulStopMs: number;
  tags: Record<string, string>;
  vus: number;
  iterations: number;
  durationMs: number;
  maxDurationMs: number;
  rate: number;
  timeUnitMs: number;
  preAllocatedVUs: number;
  maxVUs: number;
  startRate: number;
  stages: { target: number; durationMs: number }[];
}

export class OptionsError extends FleetproofError {
  constructor(message: string, options?: ErrorOptions) {
    super('FP_ERR_SCRIPT', message, options);
  }
}

export function parseDurationMs(value: unknown, what: string): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') throw new OptionsError(`${what} must be a duration`);
  let total = 0;
  let rest = value.trim();
  if (rest === '0') return 0;
  while (rest.length > 0) {
    const m = /^([0-9]+(?:\.[0-9]+)?)(ms|s|m|h)/.exec(rest);
    if (!m) throw new OptionsError(`${what}: invalid duration ${value}`);
    total += Number(m[1]) * { ms: 1, s: 1000, m: 60000, h: 3600000 }[m[2] as 'ms' | 's' | 'm' | 'h'];
    rest = rest.slice(m[0].length);
  }
  return total;
}

const EXECUTORS: readonly ExecutorName[] = [
  'per-vu-iterations',
  'shared-iterations',
  'constant-vus',
  'constant-arrival-rate',
  'ramping-arrival-rate',
];

type Raw = Record<string, unknown>;

function positive(raw: Raw, key: string, fallback: number, scenario: string): number {
  const v = raw[key] ?? fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
    throw new OptionsError(`scenario ${scenario}: ${key} must be a non-negative number`);
  return v;
}

export function normaliseScenario(name: string, raw: Raw): ScenarioConfig {
  const executor = raw['executor'] as ExecutorName;
  if (!EXECUTORS.includes(executor)) throw new OptionsError(`scenario ${name}: the Node runner has no executor ${String(raw['executor'])}`);
  const ms = (key: string, fallback: string) => parseDurationMs(raw[key] ?? fallback, `scenario ${name}: ${key}`);
  const preAllocatedVUs = positive(raw, 'preAllocatedVUs', 1, name);
  const stages = ((raw['stages'] as Raw[] | undefined) ?? []).map((s) => ({
    target: positive(s, 'target', 0, name),
    durationMs: parseDurationMs(s['duration'], `scenario ${name}: stage duration`),
  }));
  return {
    name,
    executor,
    exec: typeof raw['exec'] === 'string' ? (raw['exec'] as string) : 'default',
    startTimeMs: ms('startTime', '0s'),
    gracefulStopMs: ms('gracefulStop', '30s'),
    tags: Object.fromEntries(Object.entries((raw['tags'] as Record<string, unknown>) ?? {}).map(([k, v]) => [k, String(v)])),
    vus: positive(raw, 'vus', 1, name),
    iterations: positive(raw, 'iterations', 1, name),
    durationMs: raw['duration'] === undefined ? 0 : ms('duration', '0s'),
    maxDurationMs: ms('maxDuration', '10m'),
    rate: positive(raw, 'rate', 0, name),
    timeUnitMs: ms('timeUnit', '1s'),
    preAllocatedVUs,
    maxVUs: Math.max(preAllocatedVUs, positive(raw, 'maxVUs', preAllocatedVUs, name)),
    startRate: positive(raw, 'startRate', 0, name),
    stages,
  };
}

/** k6's shortcut options (vus, iterations, duration) as the default scenario. */
export function scenariosOf(options: Raw): ScenarioConfig[] {
  const scenarios = options['scenarios'] as Record<string, Raw> | undefined;
  if (scenarios && Object.keys(scenarios).length > 0) return Object.entries(scenarios).map(([n, s]) => normaliseScenario(n, s));
  const vus = (options['vus'] as number | undefined) ?? 1;
  if (options['duration'] !== undefined)
    return [normaliseScenario('default', { executor: 'constant-vus', vus, duration: options['duration'] })];
  return [
    normaliseScenario('default', { executor: 'shared-iterations', vus, iterations: (options['iterations'] as number | undefined) ?? vus }),
  ];
}

/** constant-arrival-rate or ramping-arrival-rate: the open model, whose iterations start on a schedule. */
export function isArrivalRate(s: ScenarioConfig): boolean {
  return s.executor === 'constant-arrival-rate' || s.executor === 'ramping-arrival-rate';
}

/** VUs a scenario holds from its start. */
export function initialVus(s: ScenarioConfig): number {
  return isArrivalRate(s) ? s.preAllocatedVUs : s.vus;
}

/** When the scenario is over at the latest, graceful stop included. */
export function hardEndMs(s: ScenarioConfig): number {
  switch (s.executor) {
    case 'per-vu-iterations':
    case 'shared-iterations':
      return s.startTimeMs + s.maxDurationMs + s.gracefulStopMs;
    case 'constant-vus':
    case 'constant-arrival-rate':
      return s.startTimeMs + s.durationMs + s.gracefulStopMs;
    case 'ramping-arrival-rate':
      return s.startTimeMs + s.stages.reduce((n, st) => n + st.durationMs, 0) + s.gracefulStopMs;
  }
}

/** The most VUs that scenarios running at the same time hold from their start. */
export function peakInitialVus(scenarios: ScenarioConfig[]): number {
  let peak = 0;
  for (const s of scenarios) {
    const overlapping = scenarios.filter((o) => o.startTimeMs <= s.startTimeMs && hardEndMs(o) > s.startTimeMs);
    peak = Math.max(
      peak,
      overlapping.reduce((n, o) => n + initialVus(o), 0),
    );
  }
  return peak;
}
