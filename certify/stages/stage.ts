// What every stage of a certification receives and returns. A stage runs one
// suite against the target, writes its own result document under the run
// directory, and reports what the certification needs: its status and
// reasons, the clauses its checks covered, and how to reproduce each failure.
import { runTokens, sharedRecheck } from '../../client/preflight.ts';
import type { SigningKey } from '../../contract/tokens.ts';
import type { CredentialChoice } from '../../client/credential-sources.ts';
import type { StageBudgets } from '../../client/stage-budget.ts';
import type { ClauseCoverage, Failure, StageRecord } from '../../reports/schemas/certification-result.ts';
import type { KeptData } from '../../conformance/runner/result.ts';

export interface StageContext {
  /** The run directory; each stage writes under `<out>/<stage>/`. */
  out: string;
  /** The certification's run id: every stage's records and documents carry it. */
  runId: string;
  targetUrl: string;
  /** The private key the target trusts, and its file (for commands a person can rerun); null when `auth` alone authenticates. */
  key: SigningKey | null;
  keyPath: string | null;
  /** A token command or static headers the vendor brings, for every stage's requests. */
  auth?: CredentialChoice;
  profile: string;
  /** The stages' budgets as given (--budget); a stage not named scales its own from what it runs. */
  budgets?: StageBudgets;
  /** The command prefix that names this target, for reproduction commands. */
  targetFlags: string;
  /** Leave the conformance stage's records on the target, so each failure's curl replays against them. */
  keepData?: boolean;
  log(line: string): void;
}

/** What one stage says about one clause. */
export interface ClauseEvidence {
  clause: string;
  kind: 'case' | 'property';
  id: string;
  status: ClauseCoverage['status'];
}

export interface StageOutput {
  record: StageRecord;
  evidence: ClauseEvidence[];
  failures: Failure[];
  /** Where the stage left records it kept (--keep-data), and how to retire them. */
  keptData?: KeptData;
}

/**
 * The stage's question after a failure, as `fleetproof properties` asks it: does the target still answer as a
 * registry and take the run's tokens? The line naming the problem, or null; asked at most every few seconds.
 */
export function stageRecheck(ctx: StageContext): () => Promise<string | null> {
  return sharedRecheck({ target: ctx.targetUrl, credentials: runTokens(ctx.auth, ctx.key, { keyPath: ctx.keyPath ?? undefined }) });
}

export function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
