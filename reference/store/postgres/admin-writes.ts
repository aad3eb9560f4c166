// Administration on PostgreSQL: every write, single or batched, is a group
// decided against a write draft and flushed in one transaction per pool.
// Catalog writes run on the control pool under the exclusive publication lock
// and bump the revision once per group; replica writes run on the data pool
// with the touched replica rows locked.
import type pg from 'pg';
import type { BatchResult, RegistryLimits, WriteResult } from '../../../contract/records.ts';
import type { Clock } from '../../domain/time.ts';
import { applyBatchItems, isCatalogWrite } from '../batch.ts';
import { asRegistryError, run, type Db } from './database.ts';
import { DraftAdministrator } from './draft-admin.ts';
import { flushCatalog, flushLifecycle } from './draft-flush.ts';
import { sql } from './sql.ts';
import { preloadDraft } from './draft-preload.ts';
import { WriteDraft } from './write-draft.ts';
import { BATCH_OP_ROLES } from '../batch.ts';
import type { BatchOp } from '../../../contract/records.ts';
import type { ReferenceChoices } from '../../domain/choices.ts';

export interface AdminWritesOptions {
  control: pg.Pool | undefined;
  data: pg.Pool;
  limits: RegistryLimits;
  clock: Clock;
  choices: ReferenceChoices;
}

function opOf(item: unknown): BatchOp | undefined {
  const op = typeof item === 'object' && item !== null ? (item as { op?: unknown }).op : undefined;
  return typeof op === 'string' && Object.hasOwn(BATCH_OP_ROLES, op) ? (op as BatchOp) : undefined;
}

async function begin(pool: pg.Pool): Promise<Db> {
  let db: Db;
  try {
    db = await pool.connect();
  } catch (err) {
    throw asRegistryError(err);
  }
  try {
    await db.query('BEGIN');
  } catch (err) {
    db.release(true);
    throw asRegistryError(err);
  }
  return db;
}

async function finish(db: Db | undefined, commit: boolean): Promise<void> {
  if (!db) return;
  try {
    await db.query(commit ? 'COMMIT' : 'ROLLBACK');
    db.release();
  } catch (err) {
    db.release(true);
    if (commit) throw err;
  }
}

export class AdminWrites {
  constructor(private readonly o: AdminWritesOptions) {}

  /** One write, given in its batch item form for loading; its error, if any, is the caller's. */
  async single<T>(
    item: { op: BatchOp } & Record<string, unknown>,
    write: (admin: DraftAdministrator) => Promise<WriteResult<T>>,
  ): Promise<WriteResult<T>> {
    const { result, revision } = await this.group([item], write);
    return { ...result, catalog_revision: revision };
  }

  /** [batch-items]: each item decided in order against the effects of the ones before it. */
  async batch(items: unknown[]): Promise<BatchResult> {
    const { result, revision } = await this.group(Array.isArray(items) ? items : [], (admin) =>
      applyBatchItems(admin, items, this.o.limits.max_batch_items),
    );
    return { catalog_revision: revision, results: result };
  }

  private async group<R>(items: unknown[], body: (admin: DraftAdministrator) => Promise<R>): Promise<{ result: R; revision: number }> {
    const ops = items.map(opOf);
    const writesCatalog = ops.some((op) => op !== undefined && isCatalogWrite(op));
    const writesReplicas = ops.some((op) => op !== undefined && !isCatalogWrite(op));
    const nowMs = this.o.clock();
    const open: { control?: Db; data?: Db } = {};
    const close = async (which: 'control' | 'data', commit: boolean) => {
      const db = open[which];
      delete open[which];
      await finish(db, commit);
    };
    try {
      if (writesCatalog && this.o.control) open.control = await begin(this.o.control);
      if (writesReplicas || !open.control) open.data = await begin(this.o.data);
      const { control, data } = open;
      if (control) await run(control, sql('lock-catalog-exclusive'));
      const draft = new WriteDraft();
      await preloadDraft(draft, items, (control ?? data)!, data);
      const admin = new DraftAdministrator(draft, {
        limits: this.o.limits,
        nowMs,
        catalogWrites: control !== undefined,
        choices: this.o.choices,
      });
      const result = await body(admin);
      const revision =
        (control ? await flushCatalog(draft, control, nowMs, this.o.choices.revisionStep) : null) ??
        (await run<{ revision: number }>((control ?? data)!, sql('read-revision')))[0]!.revision;
      // The catalog commits first: a new replica may reference a new instance
      // (a foreign key the data transaction checks), never the reverse. A
      // group mixing both kinds therefore commits in two steps.
      await close('control', true);
      if (data && draft.hasLifecycleChanges) await flushLifecycle(draft, data, this.o.choices.tiebreakSalt);
      await close('data', true);
      return { result, revision };
    } catch (err) {
      await Promise.all([close('control', false), close('data', false)]);
      throw asRegistryError(err);
    }
  }
}
