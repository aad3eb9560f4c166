// The fleetproof-scale/v1 contract document (load/contract/): loading it,
// validating it against its JSON Schema, and resolving one profile with the
// operator's overrides (`--set dimension=value`, `--set phase.param=value`,
// `--set threshold.id=expression`, `--duration`). The resolved profile is what the load script receives.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { sha256Hex } from '../../contract/digest.ts';
import { scaleDataset, validateDimensions, type Dimensions } from '../lib/dataset.js';
import { phaseParams, routingTenants, sustainedPools } from '../lib/fleet-facts.js';
import { parseExpression } from './node-engine/thresholds.ts';
import { FleetproofError } from '../../client/errors.ts';
import { durationMs } from '../../client/stage-budget.ts';

export const CONTRACT_FORMAT = 'fleetproof-scale/v1';
const CONTRACT_URL = new URL('../contract/fleetproof-scale-v1.json', import.meta.url);
const SCHEMA_URL = new URL('../contract/fleetproof-scale-v1.schema.json', import.meta.url);

export type PhaseName =
  | 'seed'
  | 'version_rollout'
  | 'noisy_tenant'
  | 'retry_storm'
  | 'catalog_walk'
  | 'parallel_catalog'
  | 'concurrent_routes'
  | 'retry_rotation'
  | 'lease_churn'
  | 'sustained_routes'
  | 'sustained_catalog'
  | 'heartbeats'
  | 'sustained_lease_churn'
  | 'replica_monitor';

export interface PhaseSpec {
  name: PhaseName;
  start?: 'after_previous' | 'with_previous';
  budget_s?: number;
  params?: Record<string, number>;
}

export interface ThresholdSpec {
  id: string;
  label: string;
  metric: string;
  expression: string;
  unit: string;
  source?: string;
}

export interface ProfileSpec {
  description: string;
  duration_s?: number;
  /** Iterations the generator may fail to start before the run could not judge at its rate (default 0). */
  max_dropped_iterations?: number;
  /** Whether a qualification phase cut at its budget fails the registry (default true); smoke's budgets only bound the run. */
  budgets_judge_speed?: boolean;
  dataset: Dimensions;
  phases: PhaseSpec[];
  thresholds: ThresholdSpec[];
}

export interface ScaleContract {
  format: typeof CONTRACT_FORMAT;
  description: string;
  percentiles: string;
  phase_checks: string;
  profiles: Record<string, ProfileSpec>;
}

/** A profile with every override applied: what one run executes. */
export interface ResolvedProfile extends ProfileSpec {
  name: string;
  format: typeof CONTRACT_FORMAT;
  phase_checks: string;
  /** The overrides that produced it, for the report. */
  overrides: string[];
  /** What the run lowered to fit the limits the target declares (load/runner/fit-to-limits.ts); not an override. */
  fitted?: string[];
  /** How the run stretched the phase budgets to the machine's load (load/runner/fit-to-machine.ts); not an override. */
  stretched?: string;
}

export class ContractError extends FleetproofError {
  constructor(message: string, options?: ErrorOptions) {
    super('FP_ERR_SCALE_CONTRACT', message, options);
  }
}

export function loadScaleContract(): ScaleContract {
  const contract = JSON.parse(readFileSync(CONTRACT_URL, 'utf8')) as unknown;
  const schema = JSON.parse(readFileSync(SCHEMA_URL, 'utf8')) as object;
  const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);
  if (!validate(contract)) {
    const where = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('; ');
    throw new ContractError(`load/contract/fleetproof-scale-v1.json does not match its schema: ${where}`);
  }
  return contract as ScaleContract;
}

function parseNumber(text: string, what: string): number {
  if (!/^[0-9]+(\.[0-9]+)?$/.test(text)) throw new ContractError(`${what} must be a non-negative number, not ${text}`);
  return Number(text);
}

/** An operator's own bound for one of the profile's thresholds (its SLO, or a looser one for a test bench). */
function setThreshold(profile: ResolvedProfile, id: string, expression: string): void {
  const threshold = profile.thresholds.find((t) => t.id === id);
  if (!threshold)
    throw new ContractError(
      `--set threshold.${id}: profile ${profile.name} has no threshold ${id} (${profile.thresholds.map((t) => t.id).join(', ')})`,
    );
  try {
    parseExpression(expression);
  } catch (err) {
    throw new ContractError(`--set threshold.${id}: ${(err as Error).message}; write it as k6 does, e.g. p(99)<=200`);
  }
  threshold.expression = expression;
}

function applySet(profile: ResolvedProfile, assignment: string): void {
  const eq = assignment.indexOf('=');
  if (eq <= 0) throw new ContractError(`--set needs name=value, not ${assignment}`);
  const name = assignment.slice(0, eq).trim();
  if (name.startsWith('threshold.')) return setThreshold(profile, name.slice('threshold.'.length), assignment.slice(eq + 1).trim());
  const value = parseNumber(assignment.slice(eq + 1).trim(), `--set ${name}`);
  const dot = name.indexOf('.');
  if (dot === -1) {
    if (!Object.hasOwn(profile.dataset, name)) {
      throw new ContractError(`--set ${name}: not a dataset dimension (${Object.keys(profile.dataset).join(', ')}) nor phase.param`);
    }
    if (!Number.isInteger(value)) throw new ContractError(`--set ${name}: dimensions are integers`);
    (profile.dataset as unknown as Record<string, number>)[name] = value;
    return;
  }
  const phaseName = name.slice(0, dot);
  const param = name.slice(dot + 1);
  const phase = profile.phases.find((p) => p.name === phaseName);
  if (!phase) throw new ContractError(`--set ${name}: profile ${profile.name} has no phase ${phaseName}`);
  if (param === 'budget_s') {
    phase.budget_s = value;
    return;
  }
  if (!phase.params || !Object.hasOwn(phase.params, param)) {
    throw new ContractError(
      `--set ${name}: phase ${phaseName} has no parameter ${param} (${Object.keys(phase.params ?? {}).join(', ') || 'none'})`,
    );
  }
  phase.params[param] = value;
}

/**
 * Keeps the seed and the named phases only, and the thresholds that do not
 * name a phase left out; for a partial run, never a qualification.
 */
function keepPhases(profile: ResolvedProfile, only: readonly string[]): void {
  for (const name of only) {
    if (!profile.phases.some((p) => p.name === name)) throw new ContractError(`--phases: profile ${profile.name} has no phase ${name}`);
  }
  const kept = new Set(['seed', ...only]);
  profile.phases = profile.phases.filter((p) => kept.has(p.name));
  profile.thresholds = profile.thresholds.filter((t) => {
    const named = /[{,]phase:([a-z_]+)/.exec(t.metric);
    return !named || kept.has(named[1]!);
  });
  // A with_previous phase whose leader was dropped starts after the phase before it.
  if (profile.phases[1]) profile.phases[1].start = 'after_previous';
  profile.overrides.push(`phases=${[...kept].join(',')}`);
}

/**
 * The named profile with `sets` applied in order, when given only the
 * phases in `only` (and the seed), and the duration of its sustained
 * phases replaced.
 */
export function resolveProfile(
  contract: ScaleContract,
  name: string,
  sets: readonly string[] = [],
  durationS?: number,
  only?: readonly string[],
): ResolvedProfile {
  const spec = contract.profiles[name];
  if (!spec) throw new ContractError(`unknown profile ${name} (${Object.keys(contract.profiles).join(', ')})`);
  const profile: ResolvedProfile = {
    ...structuredClone(spec),
    name,
    format: contract.format,
    phase_checks: contract.phase_checks,
    overrides: [...sets],
  };
  for (const s of sets) applySet(profile, s);
  if (only && only.length > 0) keepPhases(profile, only);
  if (durationS !== undefined) {
    if (!(durationS > 0)) throw new ContractError('--duration must be positive');
    profile.duration_s = durationS;
    profile.overrides.push(`duration_s=${durationS}`);
  }
  try {
    validateDimensions(profile.dataset);
  } catch (err) {
    throw new ContractError((err as Error).message);
  }
  if (profile.phases[0]?.name !== 'seed') throw new ContractError(`profile ${name} must start with the seed phase`);
  refuseIdleChurn(profile);
  return profile;
}

/**
 * Sustained lease churn expires replicas of the tenants that do not route
 * (load/lib/fleet-facts.js); a dataset in which every tenant routes, or whose
 * other replicas the qualification phases already took, leaves it nothing to
 * send, and a run of it would judge nothing.
 */
function refuseIdleChurn(profile: ResolvedProfile): void {
  const facts = { run_id: 'check', profile };
  if (phaseParams(facts, 'sustained_lease_churn') === null) return;
  const data = scaleDataset({ runId: facts.run_id, dimensions: profile.dataset, sha256Hex, leaseUntilMs: 0 });
  if (sustainedPools(facts, data).churn.length > 0) return;
  const routing = routingTenants(facts, data);
  throw new ContractError(
    `profile ${profile.name}: sustained_lease_churn has no replica to churn: it takes the replicas of tenants that do not route, and ${routing} of ${profile.dataset.tenants} tenants route` +
      (phaseParams(facts, 'lease_churn') ? ' (lease_churn takes the others)' : '') +
      `; raise tenants above sustained_routes.routing_tenants (--set tenants=${routing + 1}) or lower routing_tenants`,
  );
}

/** Parses `90`, `90s`, `5m`, `1h` into seconds. */
export function parseDuration(text: string): number {
  const ms = durationMs(text);
  if (ms === null) throw new ContractError(`--duration must look like 90s, 5m or 1h, not ${text}`);
  return ms / 1000;
}
