// Indexed at fleet scale: the aip-fleet-slo-v1 dataset (10,000 instances and
// replicas, 100,000 bindings) seeded through the batch operation, then the
// plans of every routing and catalog statement, as custom plans for real
// parameters and as the generic plans prepared statements fall back to,
// must not scan bindings or replicas sequentially.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { scaleDataset } from '../../../../load/lib/dataset.js';
import { REFERENCE_CHOICES } from '../../../domain/choices.ts';
import { EligibleChains, resolveArgs, type EligibleSet } from '../route-selection.ts';
import { sql } from '../sql.ts';
import { postgresTestDatabases, type TestDatabase } from './test-database.ts';
import type { PostgresStore } from '../postgres-store.ts';

const databases = postgresTestDatabases();
const sha256Hex = (t: string) => createHash('sha256').update(t, 'utf8').digest('hex');
// The tables that grow with the fleet (100,000 bindings, version capabilities and
// routes, 10,000 instances and replicas in the scale dataset).
const GUARDED_TABLES = new Set(['capability_bindings', 'connector_replicas', 'version_capabilities', 'connector_instances']);
/** Node types that read a table through one of its indexes. */
const INDEXED_READ = /^(Index Scan|Index Only Scan|Bitmap Heap Scan)$/;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

interface ExplainedStatement {
  query: string;
  nodes: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

describe('postgres plans at aip-fleet-slo-v1 scale', () => {
  const data = scaleDataset({ runId: 'plans', sha256Hex, leaseUntilMs: Date.now() + 24 * 3_600_000 });
  let db: TestDatabase;
  let store: PostgresStore;
  let client: pg.Client;
  let seedSeconds = 0;

  before(async () => {
    ({ store, db } = await databases.openStore());
    const started = performance.now();
    for (const items of data.batches(1000)) {
      const { results } = await store.applyBatch(items);
      const rejected = results.find((r) => r.outcome === 'rejected');
      if (rejected) throw new Error(`seed item rejected: ${JSON.stringify(rejected)}`);
    }
    seedSeconds = (performance.now() - started) / 1000;
    client = new pg.Client(db.url);
    await client.connect();
    await client.query('ANALYZE');
  });

  after(async () => {
    await client?.end();
    await store?.close();
  });

  /** The statement's plan nodes, custom (real parameters) then generic. */
  async function plans(statement: string, values: unknown[]): Promise<PlanNode[]> {
    const text = sql(statement).text;
    const out: PlanNode[] = [];
    for (const mode of ['force_custom_plan', 'force_generic_plan']) {
      await client.query(`SET plan_cache_mode = ${mode}`);
      const [
        {
          'QUERY PLAN': [root],
        },
      ] = (await client.query({ name: `explain_${statement}_${mode}`, text: `EXPLAIN (FORMAT JSON) ${text}`, values })).rows;
      out.push(...nodes(root.Plan));
    }
    await client.query('RESET plan_cache_mode');
    return out;
  }

  /**
   * The plans of every statement a routing function runs (auto_explain of
   * nested statements, reported to this client), custom then generic, with
   * the call's outcome checked when one is expected; `around` wraps each
   * call (to hold rows while it runs).
   */
  async function functionPlans(
    statement: string,
    values: unknown[],
    outcome: string | undefined,
    around: (call: () => Promise<void>) => Promise<void> = (call) => call(),
  ): Promise<ExplainedStatement[]> {
    const c = new pg.Client(db.url);
    const out: ExplainedStatement[] = [];
    c.on('notice', (n) => {
      const at = n.message?.indexOf('plan:\n') ?? -1;
      if (at < 0) return;
      const explained = JSON.parse(n.message!.slice(at + 'plan:\n'.length)) as { 'Query Text': string; Plan: PlanNode };
      out.push({ query: explained['Query Text'], nodes: nodes(explained.Plan) });
    });
    await c.connect();
    try {
      await c.query(`LOAD 'auto_explain'`);
      await c.query(
        'SET auto_explain.log_min_duration = 0; SET auto_explain.log_nested_statements = on; SET auto_explain.log_format = json; ' +
          'SET auto_explain.log_level = notice; SET client_min_messages = notice',
      );
      for (const mode of ['force_custom_plan', 'force_generic_plan']) {
        await c.query(`SET plan_cache_mode = ${mode}`);
        await c.query('BEGIN');
        let rows: Array<{ outcome?: string }> = [];
        await around(async () => {
          ({ rows } = await c.query(sql(statement).text, values));
        });
        await c.query('ROLLBACK');
        if (outcome !== undefined) assert.equal(rows[0]?.outcome, outcome, `${statement} under ${mode}`);
      }
    } finally {
      await c.end();
    }
    return out;
  }

  /** A statement run inside a function: no sequential scan, and guarded tables it reads are read through an index. */
  function assertIndexedStatement(e: ExplainedStatement): void {
    assertIndexed(e.query, e.nodes);
    for (const table of GUARDED_TABLES) {
      const reads = e.nodes.filter((n) => n['Relation Name'] === table);
      if (reads.length > 0)
        assert.ok(
          reads.some((n) => INDEXED_READ.test(n['Node Type'])),
          `${e.query} reads ${table} without an index`,
        );
    }
  }

  function assertIndexed(statement: string, found: PlanNode[]): void {
    const scans = found.filter((n) => n['Node Type'] === 'Seq Scan' && GUARDED_TABLES.has(n['Relation Name'] ?? ''));
    assert.deepEqual(
      scans.map((n) => n['Relation Name']),
      [],
      `${statement} scans ${scans.map((n) => n['Relation Name']).join(', ')} sequentially`,
    );
  }

  // Seeding speed is a benchmark figure (npm run bench:pg), not asserted
  // here: a shared CI machine makes wall time an unreliable verdict.
  it('seeds the whole dataset through batches', async (t) => {
    const counts = (
      await client.query(`SELECT (SELECT count(*) FROM capability_bindings)::integer AS bindings,
      (SELECT count(*) FROM connector_replicas)::integer AS replicas, (SELECT count(*) FROM connector_instances)::integer AS instances`)
    ).rows[0];
    assert.deepEqual(counts, { bindings: data.counts.bindings, replicas: data.counts.replicas, instances: data.counts.instances });
    t.diagnostic(`seeded in ${seedSeconds.toFixed(1)} s`);
  });

  it('routing statements use indexes on the tables that grow with the fleet', async () => {
    const tenant = data.ids.tenant(7);
    const capability = data.tenantCapabilities(7)[3]!;
    const now = Date.now();
    const args = (actionId: string, fenceToken: string, set?: EligibleSet) =>
      resolveArgs({
        tenantId: tenant,
        req: { action_id: actionId, capability_id: capability },
        set,
        nowMs: now,
        fenceToken,
        choices: REFERENCE_CHOICES,
      });
    // A resolve runs its statements inside fleetproof_resolve, where
    // auto_explain reports each one's plan: with the eligible bindings read
    // afresh, then with them as a store keeps them, then with every
    // candidate held by another transaction until a moment later, so that
    // the walk over the candidates and the wait for one run too.
    const explained = await functionPlans('resolve', args('act-plan-new', 'route_plan_new'), 'created');
    const [opened] = (await client.query(sql('resolve').text, args('act-plan-keys', 'route_plan_keys'))).rows;
    const eligible = new EligibleChains();
    eligible.put(tenant, capability, opened.publication, opened.keys, opened.tier_ends);
    const set = eligible.get(tenant, capability)!;
    explained.push(...(await functionPlans('resolve', args('act-plan-kept', 'route_plan_kept', set), 'created')));
    const candidates = opened.keys.map((k: string) => k.split(' ')[0]);
    explained.push(
      ...(await functionPlans('resolve', args('act-plan-held', 'route_plan_held', set), 'created', async (call) => {
        const holder = new pg.Client(db.url);
        await holder.connect();
        try {
          await holder.query('BEGIN');
          await holder.query('SELECT 1 FROM connector_replicas WHERE instance_id = ANY($1) FOR UPDATE', [candidates]);
          const called = call();
          await new Promise((resolve) => setTimeout(resolve, 300));
          await holder.query('ROLLBACK');
          await called;
        } finally {
          await holder.end();
        }
      })),
    );
    // A settlement of a stored route, then a retry that reacquires it.
    const [created] = (await client.query(sql('resolve').text, args('act-plan', 'route_plan', set))).rows;
    assert.equal(created.outcome, 'created');
    const settleArgs = ['act-plan', tenant, JSON.stringify(created.assignment), 'completed', now, false, true];
    explained.push(...(await functionPlans('settle', settleArgs, 'released')));
    await client.query(sql('settle').text, settleArgs);
    explained.push(...(await functionPlans('resolve', args('act-plan', 'route_plan_retry', set), 'route')));
    const queries = new Set(explained.map((e) => e.query));
    assert.ok(queries.size >= 12, `only ${queries.size} statements of the routing functions were explained`);
    for (const e of explained) assertIndexedStatement(e);
    assertIndexed('read-route', await plans('read-route', ['act-plan']));
    assertIndexed('expire-select-replicas', await plans('expire-select-replicas', [now, 200]));
    assertIndexed('expire-reserved-routes', await plans('expire-reserved-routes', [[data.ids.replica(1)]]));
    assertIndexed('load-bindings', await plans('load-bindings', [[tenant], [capability], [candidates[0]]]));
    assertIndexed('load-bound-capabilities', await plans('load-bound-capabilities', [[candidates[0]]]));
  });

  it('catalog statements use indexes on the tables that grow with the fleet', async () => {
    const tenant = data.ids.tenant(42);
    assertIndexed('catalog-tenant-view', await plans('catalog-tenant-view', [tenant]));
    const versions = (await client.query('SELECT version_id FROM connector_versions LIMIT 50')).rows.map((r) => r.version_id);
    assertIndexed('catalog-version-capabilities', await plans('catalog-version-capabilities', [versions]));
    assertIndexed('catalog-active-versions', await plans('catalog-active-versions', []));
    assertIndexed('load-definitions', await plans('load-definitions', [data.tenantCapabilities(42).slice(0, 50)]));
  });

  it('a tenant catalog walk at scale returns every visible capability once, in order', async () => {
    const tenant = data.ids.tenant(42);
    const expected = data.tenantCapabilities(42);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await store.queryCatalog({ limit: 50, ...(cursor ? { cursor } : {}) }, { tenant_id: tenant, allow_unbound: false });
      assert.equal(page.total, expected.length);
      seen.push(...page.capabilities.map((d) => d.capability.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    assert.deepEqual(seen, expected);
  });
});
