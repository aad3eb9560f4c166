// `fleetproof certify`, end to end: start the embedded reference (handed in
// by the composition root) unless a target is given, run conformance, then the property suites over HTTP, then
// a load profile with its audit; combine the three into one result, render
// it, and sign the run directory. Exit 0 only when all three pass, 1 when any
// found a defect, 2 when the run could not judge the target.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import { CONTRACT_VERSION, type VersionInfo } from '../contract/records.ts';
import { defaultRunDir, newRunId } from '../client/run-id.ts';
import { loadSigningKey, type SigningKey } from '../contract/tokens.ts';
import { CLOCK_BOUND_MS, preflight, runTokens } from '../client/preflight.ts';
import { caseSetOf, contractRevision } from '../client/provenance.ts';
import { commandLine, credentialArgs, shellQuote } from '../client/rerun.ts';
import type { KeptData } from '../conformance/runner/result.ts';
import type { CredentialChoice } from '../client/credential-sources.ts';
import { harnessProvenance } from '../conformance/runner/provenance.ts';
import { BUNDLE_FILE, BUNDLE_PUBLIC_KEY_FILE, loadSigner, writeBundle, type SignerKey } from '../reports/bundle/bundle.ts';
import { writeCertificationReports } from '../reports/certification/write.ts';
import {
  CERTIFICATION_SCHEMA,
  RESULT_FILE,
  STAGE_NAMES,
  type CertificationResult,
  type Environment,
  type StageName,
  type StageRecord,
} from '../reports/schemas/certification-result.ts';
import { clauseCoverage } from './coverage.ts';
import { groundsOf } from './grounds.ts';
import { DEFAULT_SCHEDULE, type Fault, type Schedule } from './nemesis/nemesis.ts';
import { randomSeed, type NemesisRequest } from './nemesis/open-nemesis.ts';
import { nemesisFlags } from './nemesis/nemesis-summary.ts';
import { conformanceStage } from './stages/conformance-stage.ts';
import { faultsStage, type FaultsStageOptions } from './stages/faults-stage.ts';
import { loadStage } from './stages/load-stage.ts';
import { propertiesStage } from './stages/properties-stage.ts';
import type { ClauseEvidence, StageContext, StageOutput } from './stages/stage.ts';
import { overallVerdict } from './verdict.ts';
import type { StageBudgets } from '../client/stage-budget.ts';

export interface CertifyOptions {
  /** A registry to certify, with the key it trusts or the vendor's own credentials (or both); without it the embedded reference is started. */
  target?: { url: string; keyPath?: string | undefined; auth?: CredentialChoice };
  /** The embedded reference's store. */
  store?: EmbeddedStore;
  /** Starts the embedded reference with the given store; the composition root supplies it. */
  startEmbedded?: (store: EmbeddedStore, log: (line: string) => void) => Promise<CertificationTarget>;
  profile?: string;
  out?: string;
  /** The key that signs the bundle (read by the caller before the run, so a bad one refuses the run at once); a fresh key otherwise. */
  signer?: SignerKey;
  /** The faults stage's nemesis; without it the proxy, plus the embedded reference's own faults. */
  nemesis?: NemesisRequest;
  /** Runs per suite and round in the faults stage (tests keep it small). */
  faultRuns?: number;
  /** Keeps the faults stage going for at least this long. */
  faultsDurationMs?: number;
  /** The stages' budgets as given (--budget); each stage scales its own from what it runs otherwise. */
  budgets?: StageBudgets;
  /** Leave the conformance stage's records on the target (listed beside its result), so each failure's curl replays. */
  keepData?: boolean;
  log?: (line: string) => void;
}

export interface CertifyOutcome {
  exitCode: 0 | 1 | 2;
  result: CertificationResult;
  outDir: string;
  bundlePath: string;
}

/** The certification's rhythm: short enough that faults fall inside the suites. */
export const CERTIFY_SCHEDULE: Schedule = { ...DEFAULT_SCHEDULE, faultMs: 2000, quietMs: 2000 };

function stages(faults: FaultsStageOptions): Record<StageName, (ctx: StageContext) => Promise<StageOutput>> {
  return { conformance: conformanceStage, properties: propertiesStage, faults: (ctx) => faultsStage(ctx, faults), load: loadStage };
}

/** The nemesis a run gets: the one asked for, or the proxy and whatever the target brings of its own. */
function nemesisFor(options: CertifyOptions, target: CertificationTarget): NemesisRequest {
  const builtin = target.builtinFaults ?? [];
  const { builtin: _unknownUntilStarted, ...asked } = options.nemesis ?? {
    kinds: builtin.length > 0 ? ['proxy', 'builtin'] : ['proxy'],
    schedule: CERTIFY_SCHEDULE,
    seed: randomSeed(),
  };
  // Without faults of its own, `builtin` stays unsupplied and the stage says it could not run.
  return { ...asked, ...(builtin.length > 0 ? { builtin } : {}) };
}

function environment(postgres: string | null): Environment {
  const cpu = cpus();
  return {
    node: process.version,
    platform: process.platform,
    arch: process.arch,
    cpus: { model: cpu[0]?.model.trim() ?? 'unknown', count: cpu.length },
    memory_bytes: totalmem(),
    postgres,
  };
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const name = relative(dir, join(entry.parentPath, entry.name));
    if (name !== BUNDLE_FILE && name !== BUNDLE_PUBLIC_KEY_FILE) out.push(name);
  }
  return out.sort();
}

export type EmbeddedStore = NonNullable<CertificationResult['target']['store']>;

/** The registry a run certifies, opened for the run and closed after it. */
export interface CertificationTarget {
  url: string;
  /** The key the target trusts; null when the vendor's own credentials alone authenticate. */
  key: SigningKey | null;
  keyPath: string | null;
  /** Whether the run started this registry itself. */
  embedded: boolean;
  /** How a person names this target in a command that reproduces a failure. */
  flags: string;
  postgres: string | null;
  /** Faults only this target can suffer (the embedded reference's PostgreSQL, its process). */
  builtinFaults?: readonly Fault[];
  close(): Promise<void>;
}

/** The target and credentials of a command that speaks to the given target, secrets as placeholders. */
function targetArgs(target: NonNullable<CertifyOptions['target']>): string[] {
  return [
    '--target',
    target.url,
    ...credentialArgs({
      keyFile: target.keyPath ?? null,
      tokenCommand: target.auth?.tokenCommand !== undefined,
      headerNames: (target.auth?.headers ?? []).map((h) => h.split(':')[0]!.trim()),
    }),
  ];
}

/** The command that reruns this certification: its target (or the embedded reference, with its store and variant) and its choices. */
function certifyRerun(options: CertifyOptions, profile: string, version: VersionInfo | null): string {
  const args = options.target
    ? targetArgs(options.target)
    : [
        ...(options.store && options.store !== 'memory' ? ['--store', options.store] : []),
        ...(version?.variant ? ['--variant', String(version.variant.seed)] : []),
      ];
  args.push('--profile', profile);
  if (options.nemesis) args.push(...nemesisFlags(options.nemesis));
  if (options.faultsDurationMs !== undefined) args.push('--faults-duration', `${options.faultsDurationMs / 1000}s`);
  for (const [stage, ms] of Object.entries(options.budgets ?? {})) args.push('--budget', `${stage}=${ms / 1000}s`);
  if (options.keepData) args.push('--keep-data');
  return commandLine('certify', args);
}

async function openTarget(options: CertifyOptions, log: (line: string) => void): Promise<CertificationTarget> {
  if (options.target) {
    const { url, keyPath } = options.target;
    const credentials = targetArgs(options.target).slice(2).map(shellQuote).join(' ');
    return {
      url,
      key: keyPath !== undefined ? await loadSigningKey(keyPath) : null,
      keyPath: keyPath ?? null,
      embedded: false,
      flags: `--target ${url} ${credentials}`,
      postgres: null,
      close: async () => {},
    };
  }
  if (!options.startEmbedded) throw new Error('no --target given and no embedded reference to start');
  return options.startEmbedded(options.store ?? 'memory', log);
}

export async function runCertification(options: CertifyOptions = {}): Promise<CertifyOutcome> {
  const log = options.log ?? ((line: string) => console.log(line));
  const runId = newRunId();
  const outDir = options.out ?? defaultRunDir(runId);
  const profile = options.profile ?? 'smoke';
  await mkdir(outDir, { recursive: true });
  const startedAt = new Date().toISOString();
  const provenance = harnessProvenance();
  const records: StageRecord[] = [];
  const evidence: ClauseEvidence[] = [];
  const failures: StageOutput['failures'] = [];
  let keptData: KeptData | undefined;
  let target: CertificationTarget | null = null;
  let version: VersionInfo | null = null;
  try {
    target = await openTarget(options, log);
    // Conformance mints every role; the load flows stamp leases on this machine's clock.
    version = (
      await preflight({
        target: target.url,
        credentials: runTokens(options.target?.auth, target.key, { keyPath: target.keyPath ?? undefined }),
        maxClockOffsetMs: CLOCK_BOUND_MS.leases,
      })
    ).version;
    const ctx: StageContext = {
      out: outDir,
      runId,
      targetUrl: target.url,
      key: target.key,
      keyPath: target.keyPath,
      ...(options.target?.auth ? { auth: options.target.auth } : {}),
      profile,
      budgets: options.budgets ?? {},
      targetFlags: target.flags,
      ...(options.keepData ? { keepData: true } : {}),
      log,
    };
    const nemesis = nemesisFor(options, target);
    const soak = options.faultsDurationMs;
    // A soak keeps the schedule injecting for as long as the rounds go on.
    if (soak !== undefined)
      nemesis.schedule = {
        ...nemesis.schedule,
        maxDurationMs: Math.max(nemesis.schedule.maxDurationMs, soak + 60_000),
        maxFaults: Math.max(nemesis.schedule.maxFaults, Math.ceil(soak / 1000)),
      };
    const STAGES = stages({
      nemesis,
      ...(options.faultRuns !== undefined ? { runs: options.faultRuns } : {}),
      ...(soak !== undefined ? { minDurationMs: soak } : {}),
    });
    for (const [index, name] of STAGE_NAMES.entries()) {
      // Without a conformance verdict the target is not reachable enough to judge further.
      if (records[0]?.status === 'could-not-run') {
        records.push({
          name,
          status: 'skipped',
          reasons: ['the conformance stage could not run'],
          duration_ms: 0,
          result_file: null,
          figures: {},
        });
        continue;
      }
      log(
        `\n== stage ${index + 1}/${STAGE_NAMES.length}: ${name} (${((Date.now() - Date.parse(startedAt)) / 1000).toFixed(0)} s elapsed) ==`,
      );
      const output = await STAGES[name](ctx);
      records.push(output.record);
      evidence.push(...output.evidence);
      failures.push(...output.failures);
      keptData ??= output.keptData;
      log(
        `== ${name}: ${output.record.status} in ${(output.record.duration_ms / 1000).toFixed(1)} s${output.record.reasons.length ? ` (${output.record.reasons.join('; ')})` : ''}`,
      );
    }
  } catch (err) {
    // The stage that was running (or the first, when the target never opened) could not run; the rest were not reached.
    const [broken, ...rest] = STAGE_NAMES.slice(records.length);
    if (broken)
      records.push({
        name: broken,
        status: 'could-not-run',
        reasons: [(err as Error).message],
        duration_ms: 0,
        result_file: null,
        figures: {},
      });
    for (const name of rest)
      records.push({
        name,
        status: 'skipped',
        reasons: [`not reached: ${broken} could not run`],
        duration_ms: 0,
        result_file: null,
        figures: {},
      });
  } finally {
    await target?.close();
  }
  const coverage = clauseCoverage(evidence);
  const verdict = overallVerdict(records);
  const result: CertificationResult = {
    schema: CERTIFICATION_SCHEMA,
    run_id: runId,
    started_at: startedAt,
    finished_at: new Date().toISOString(),
    harness: { name: provenance.name, version: provenance.version, commit: provenance.commit },
    contract: CONTRACT_VERSION,
    target: {
      url: target?.url ?? options.target?.url ?? '',
      embedded: target?.embedded ?? false,
      store: options.target ? null : (options.store ?? 'memory'),
      version,
    },
    profile,
    environment: environment(target?.postgres ?? null),
    verdict,
    grounds: groundsOf(
      profile,
      coverage,
      records.flatMap((r) => r.skips ?? []),
    ),
    reasons: records.flatMap((r) => r.reasons.map((reason) => `${r.name}: ${reason}`)),
    stages: records,
    clauses: coverage,
    failures,
    contract_revision: contractRevision(),
    // What the stages ran: every case, property suite and audit invariant, and the load profile.
    case_set: caseSetOf([...evidence.map((e) => `${e.kind}:${e.id}`), `load-profile:${profile}`]),
    rerun: certifyRerun(options, profile, version),
    ...(keptData ? { kept_data: keptData } : {}),
  };
  // result.json states the verdict, so it comes after what could still fail (the signing key, the reports):
  // a run that ends in an error leaves no verdict behind without its reports.
  const signer = options.signer ?? (await loadSigner());
  await writeCertificationReports(outDir, result);
  await writeFile(join(outDir, RESULT_FILE), JSON.stringify(result, null, 2) + '\n');
  const bundlePath = await writeBundle(
    outDir,
    await filesUnder(outDir),
    {
      verdict,
      harness: result.harness,
      contract: CONTRACT_VERSION,
      target: { url: options.target?.url ?? null, implementation: version?.implementation ?? null },
      profile,
      run_id: runId,
      finished_at: result.finished_at,
    },
    signer,
  );
  const exitCode = verdict === 'qualified' ? 0 : verdict === 'non-conformant' ? 1 : 2;
  return { exitCode, result, outDir, bundlePath };
}
