// `fleetproof conform --retire DIR`: retires the records a run kept
// (--keep-data) once they are no longer needed for replaying its failures,
// as the run would have retired them itself, through the same preflight and
// credentials as a run. It judges nothing.
import type { ConformConfig } from './config.ts';
import { readKeptRecords, KeptRecordsProblem } from './kept-data.ts';
import { connect, CouldNotRun } from './connection.ts';
import { retireRun, type ConformOptions } from './run.ts';
import { silentProgress } from './progress.ts';
import type { RetirementOutcome } from '../harness/retirement.ts';
import { Budget } from '../../client/stage-budget.ts';

/** The preflight and the clock reading: a handful of requests. */
const SETUP_BUDGET_MS = 60_000;

export interface RetireKeptOutcome {
  /** 0 every record retired; 2 the retirement could not run or left records as they were. */
  exitCode: 0 | 2;
  message: string;
  retirement?: RetirementOutcome;
}

export async function retireKept(
  dir: string,
  config: ConformConfig,
  options: Pick<ConformOptions, 'signingKey' | 'auth'> = {},
): Promise<RetireKeptOutcome> {
  let kept;
  try {
    kept = await readKeptRecords(dir);
  } catch (err) {
    if (err instanceof KeptRecordsProblem) return { exitCode: 2, message: err.message };
    throw err;
  }
  // Another registry holds none of these records: retiring there would only be refused, record by record.
  if (kept.target.replace(/\/+$/, '') !== config.target)
    return {
      exitCode: 2,
      message: `run ${kept.runId} kept its records on ${kept.target}, not on ${config.target}: give --target ${kept.target}`,
    };
  // The preflight and the clock reading stand where a run's cases would: under the conformance stage's budget.
  const setup = new Budget('conformance', config.budgets.conformance ?? SETUP_BUDGET_MS);
  let connection;
  try {
    connection = await connect(config, options, setup.signal);
  } catch (err) {
    if (err instanceof CouldNotRun) return { exitCode: 2, message: err.message };
    if (setup.spent) return { exitCode: 2, message: setup.spentError(['the preflight']).message };
    throw err;
  } finally {
    setup.stop();
  }
  try {
    const { retirement, unfinished } = await retireRun(
      { transport: connection.transport, ledger: kept.ledger, clock: connection.clock },
      config.budgets.retirement,
      silentProgress,
    );
    if (unfinished) return { exitCode: 2, message: unfinished, retirement };
    const total = Object.values(retirement.counts).reduce((n, c) => n + c.created, 0);
    const failed = Object.values(retirement.counts).reduce((n, c) => n + c.failed, 0);
    return failed === 0
      ? { exitCode: 0, message: `retired the ${total} records run ${kept.runId} kept`, retirement }
      : {
          exitCode: 2,
          message: `retired ${total - failed} of the ${total} records run ${kept.runId} kept; ${failed} could not be: ${retirement.failures
            .slice(0, 3)
            .map((f) => `${f.kind} ${f.id}: ${f.message}`)
            .join('; ')}`,
          retirement,
        };
  } finally {
    await connection.transport.close();
  }
}
