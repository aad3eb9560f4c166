// A run that keeps its data (--keep-data) leaves its records on the target,
// so each failure's curl command replays against the state the case left,
// and lists them in kept-records.json beside result.json. `fleetproof
// conform --retire DIR` reads that list later and retires them as the run
// would have (conformance/harness/retirement.ts).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { RetirementLedger, type RetirementOutcome } from '../harness/retirement.ts';
import { conformRetireCommand } from './rerun.ts';
import type { KeptData } from './result.ts';

export const KEPT_RECORDS_FILE = 'kept-records.json';
const KEPT_RECORDS_SCHEMA = 'fleetproof-kept-records/v1';

interface KeptRecords {
  schema: typeof KEPT_RECORDS_SCHEMA;
  run_id: string;
  target: string;
  routes: Array<{ action_id: string; tenant_id: string }>;
  replicas: string[];
  bindings: Array<{ tenant_id: string; capability_id: string; instance_id: string }>;
  instances: string[];
  connector_types: string[];
}

export async function writeKeptRecords(dir: string, runId: string, target: string, ledger: RetirementLedger): Promise<string> {
  const records: KeptRecords = {
    schema: KEPT_RECORDS_SCHEMA,
    run_id: runId,
    target,
    routes: [...ledger.routes].map(([action_id, tenant_id]) => ({ action_id, tenant_id })),
    replicas: [...ledger.replicas],
    bindings: [...ledger.bindings].map((key) => {
      const [tenant_id, capability_id, instance_id] = JSON.parse(key) as [string, string, string];
      return { tenant_id, capability_id, instance_id };
    }),
    instances: [...ledger.instances],
    connector_types: [...ledger.types],
  };
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, KEPT_RECORDS_FILE), JSON.stringify(records, null, 2) + '\n');
  return KEPT_RECORDS_FILE;
}

export class KeptRecordsProblem extends Error {}

/** The ledger of a run that kept its data, and where the run kept it. */
export async function readKeptRecords(dir: string): Promise<{ runId: string; target: string; ledger: RetirementLedger }> {
  let records: KeptRecords;
  try {
    records = JSON.parse(await readFile(join(dir, KEPT_RECORDS_FILE), 'utf8')) as KeptRecords;
  } catch (err) {
    throw new KeptRecordsProblem(`cannot read ${join(dir, KEPT_RECORDS_FILE)}: ${(err as Error).message}`);
  }
  if (records?.schema !== KEPT_RECORDS_SCHEMA)
    throw new KeptRecordsProblem(`${join(dir, KEPT_RECORDS_FILE)} is not a ${KEPT_RECORDS_SCHEMA} document`);
  const ledger = new RetirementLedger();
  for (const r of records.routes) ledger.routes.set(r.action_id, r.tenant_id);
  for (const id of records.replicas) ledger.replicas.add(id);
  for (const b of records.bindings) ledger.bindings.add(JSON.stringify([b.tenant_id, b.capability_id, b.instance_id]));
  for (const id of records.instances) ledger.instances.add(id);
  for (const id of records.connector_types) ledger.types.add(id);
  return { runId: records.run_id, target: records.target, ledger };
}

/** The retirement a run that kept its data records: nothing retired, what it created counted. */
export function keptRetirement(ledger: RetirementLedger): RetirementOutcome {
  const created = (n: number) => ({ created: n, failed: 0 });
  return {
    status: 'not_run',
    counts: {
      route: created(ledger.routes.size),
      replica: created(ledger.replicas.size),
      binding: created(ledger.bindings.size),
      instance: created(ledger.instances.size),
      connector_type: created(ledger.types.size),
    },
    failures: [],
    duration_ms: 0,
  };
}

/** What the result says of kept data: the list's file, and the command that retires it. */
export function keptDataOf(recordedConfig: Record<string, unknown>, dir: string | null, recordsFile: string | null): KeptData {
  return { records: recordsFile, retire: conformRetireCommand(recordedConfig, dir ? resolve(dir) : 'RUN_DIR') };
}
