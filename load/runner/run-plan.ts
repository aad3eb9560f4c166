// The run plan a load script reads (load/lib/plan.js): a fresh run id, the
// resolved profile, and every token the run needs, minted here before the
// run so that nothing is signed inside k6. The file holds bearer tokens, so
// it is private to the user and removed after the run. A distributed run
// shares one plan (`fleetproof load --write-plan`): every instance runs the
// same run id, and the merge audits the target with the plan's tokens.
import { readFile, writeFile } from 'node:fs/promises';
import { newRunId, RUN_ID_PATTERN } from '../../client/run-id.ts';
import type { RegistryLimits } from '../../contract/records.ts';
import { type SigningKey } from '../../contract/tokens.ts';
import { mintToken } from '../../client/token-minter.ts';
import { credentialsOf, hasOwnCredentials, type CredentialChoice } from '../../client/credential-sources.ts';
import type { Caller } from '../../client/credentials.ts';
import { TokenMinter } from '../../client/token-minter.ts';
import { CONTRACT_FORMAT, type ResolvedProfile } from './scale-contract.ts';
import { FleetproofError } from '../../client/errors.ts';

export interface RunPlan {
  run_id: string;
  target: string;
  profile: ResolvedProfile;
  /** Bearer tokens; '' where static headers authenticate instead. */
  tokens: { control: string; tenants: string[] };
  /** Static headers every request sends (--header), beside or instead of the tokens. */
  headers?: Record<string, string>;
  lease_until_ms: number;
  /** The limits the target declared when the plan was made; the profile is fitted to them. */
  limits?: RegistryLimits;
}

const CONTROL_ROLES = ['registry:admin', 'registry:lifecycle', 'registry:reader', 'registry:operator'] as const;

/** The tenant id of tenant k in the scale dataset (load/lib/dataset.js). */
export function tenantId(runId: string, k: number): string {
  return `tenant-${runId}-${String(k).padStart(3, '0')}`;
}

/**
 * The tokens and headers a token command or static headers give each caller
 * of the run: asked for once, before the run, like minted ones. A token
 * command's tokens must outlive the run; the plan cannot renew them.
 */
async function broughtCredentials(
  auth: CredentialChoice,
  minter: TokenMinter | null,
  control: Caller,
  tenants: Caller[],
): Promise<{ tokens: RunPlan['tokens']; headers: Record<string, string> }> {
  const credentials = credentialsOf(auth, minter);
  let headers: Record<string, string> = {};
  const tokenOf = async (caller: Caller) => {
    const { authorization, ...rest } = (await credentials.authorize(caller)).headers;
    headers = rest;
    const bearer = authorization !== undefined ? /^Bearer (\S+)$/i.exec(authorization)?.[1] : undefined;
    if (authorization !== undefined && bearer === undefined) headers = { ...rest, authorization };
    return bearer ?? '';
  };
  const controlToken = await tokenOf(control);
  const tenantTokens: string[] = [];
  for (const t of tenants) tenantTokens.push(await tokenOf(t));
  return { tokens: { control: controlToken, tenants: tenantTokens }, headers };
}

export async function buildRunPlan(args: {
  target: string;
  profile: ResolvedProfile;
  key: SigningKey | null;
  auth?: CredentialChoice;
  limits?: RegistryLimits;
  runId?: string;
  nowMs?: number;
}): Promise<RunPlan> {
  const runId = args.runId ?? newRunId();
  const nowMs = args.nowMs ?? Date.now();
  // Leases and tokens outlive the longest the run can take: every phase budget, the sustained duration, and an hour.
  const budgetS = args.profile.phases.reduce((n, p) => n + (p.budget_s ?? 0), 0) + (args.profile.duration_s ?? 0) + 1800;
  const ttlSeconds = Math.ceil(budgetS + 3600);
  const leaseUntil = nowMs + ttlSeconds * 1000;
  const tenantCallers = Array.from({ length: args.profile.dataset.tenants }, (_, i) => ({
    roles: ['registry:dispatch'],
    tenant: tenantId(runId, i + 1),
  }));
  if (args.auth && hasOwnCredentials(args.auth)) {
    const minter = args.key ? new TokenMinter(args.key, { ttlSeconds, subject: `fleetproof-load:${runId}` }) : null;
    const brought = await broughtCredentials(args.auth, minter, { roles: CONTROL_ROLES }, tenantCallers);
    return {
      run_id: runId,
      target: args.target,
      profile: args.profile,
      ...brought,
      lease_until_ms: leaseUntil,
      ...(args.limits ? { limits: args.limits } : {}),
    };
  }
  if (!args.key) throw new PlanError('no signing key and no --token-cmd or --header: nothing can authenticate the run');
  const key = args.key;
  const control = await mintToken({ key, roles: [...CONTROL_ROLES], ttlSeconds, subject: `fleetproof-load:${runId}` });
  const tenants: string[] = [];
  for (const caller of tenantCallers) tenants.push(await mintToken({ key, roles: caller.roles, tenant: caller.tenant, ttlSeconds }));
  return {
    run_id: runId,
    target: args.target,
    profile: args.profile,
    tokens: { control, tenants },
    lease_until_ms: leaseUntil,
    ...(args.limits ? { limits: args.limits } : {}),
  };
}

export async function writeRunPlan(path: string, plan: RunPlan): Promise<void> {
  await writeFile(path, JSON.stringify(plan), { mode: 0o600 });
}

export class PlanError extends FleetproofError {
  constructor(message: string, options?: ErrorOptions) {
    super('FP_ERR_PLAN', message, options);
  }
}

/** A plan written by writeRunPlan, checked enough that a wrong file is refused before anything runs. */
export async function readRunPlan(path: string): Promise<RunPlan> {
  let plan: RunPlan;
  try {
    plan = JSON.parse(await readFile(path, 'utf8')) as RunPlan;
  } catch (err) {
    throw new PlanError(`cannot read the run plan ${path}: ${(err as Error).message}`);
  }
  const problem =
    typeof plan !== 'object' || plan === null
      ? 'not a JSON object'
      : !RUN_ID_PATTERN.test(String(plan.run_id))
        ? 'run_id is not a run id'
        : !/^https?:\/\//.test(String(plan.target))
          ? 'target is not an http(s) URL'
          : plan.profile?.format !== CONTRACT_FORMAT || typeof plan.profile.name !== 'string'
            ? `profile is not a resolved ${CONTRACT_FORMAT} profile`
            : typeof plan.tokens?.control !== 'string' ||
                !Array.isArray(plan.tokens.tenants) ||
                plan.tokens.tenants.length !== plan.profile.dataset?.tenants
              ? 'tokens do not match the profile'
              : typeof plan.lease_until_ms !== 'number'
                ? 'lease_until_ms is missing'
                : null;
  if (problem) throw new PlanError(`${path} is not a fleetproof run plan: ${problem}`);
  return plan;
}
