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
import { tiebreakHash } from '../../../domain/digest.ts';
import { sql } from '../sql.ts';
import { postgresTestDatabases, type TestDatabase } from './test-database.ts';
import type { PostgresStore } from '../postgres-store.ts';

const databases = postgresTestDatabases();
const sha256Hex = (t: string) => createHash('sha256').update(t, 'utf8').digest('hex');
const GUARDED_TABLES = new Set(['capability_bindings', 'connector_replicas']);
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
   * the call's outcome checked when one is expected.
   */
  async function functionPlans(
    statement: string,
    values: unknown[],
    outcome: string | undefined,
    then: Array<[string, unknown[]]> = [],
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
        const { rows } = await c.query(sql(statement).text, values);
        for (const [next, nextValues] of then) await c.query(sql(next).text, nextValues);
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

  it('routing statements use indexes on bindings and replicas', async () => {
    const tenant = data.ids.tenant(7);
    const capability = data.tenantCapabilities(7)[3]!;
    const bindings = await plans('routing-bindings', [tenant, capability]);
    assertIndexed('routing-bindings', bindings);
    assert.ok(
      bindings.some((n) => n['Relation Name'] === 'capability_bindings' && INDEXED_READ.test(n['Node Type'])),
      'routing-bindings reads bindings through an index',
    );

    const eligible = (
      await client.query(
        `SELECT b.instance_id, i.version_id FROM capability_bindings b JOIN connector_instances i USING (instance_id)
         WHERE b.tenant_id = $1 AND b.capability_id = $2 ORDER BY b.instance_id`,
        [tenant, capability],
      )
    ).rows;
    assert.ok(eligible.length > 0);
    const instances = eligible.map((r) => r.instance_id);
    const versions = eligible.map((r) => r.version_id);
    // The route opening runs its statements inside fleetproof_open_route,
    // where auto_explain reports each one's plan: once as it normally runs,
    // once with every candidate held by another transaction, so that the walk
    // over the candidates and the contention check run too.
    const publication = (await client.query(`SELECT revision || ':' || xmin AS p FROM catalog_revision`)).rows[0].p;
    const now = Date.now();
    const open = [
      'act-plan',
      tenant,
      capability,
      publication,
      instances,
      versions,
      instances.map(() => 0),
      now,
      null,
      null,
      null,
      null,
      tiebreakHash('act-plan'),
    ];
    const opening = await functionPlans('open-route', open, 'selected');
    const holder = new pg.Client(db.url);
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM connector_replicas WHERE instance_id = ANY($1) FOR UPDATE', [instances]);
      opening.push(...(await functionPlans('open-route', open, 'contended')));
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    const explained = new Set(opening.map((e) => e.query));
    assert.ok(explained.size >= 10, `only ${explained.size} statements of the route opening were explained`);
    for (const e of opening) assertIndexedStatement(e);
    // The writes: a route created on the selected replica, then settled, in one transaction.
    const replica = data.ids.replica(7);
    const writes = await functionPlans('open-settle', ['act-plan'], undefined, [
      [
        'create-route',
        [
          ['tenant', 'instance'],
          [tenant, instances[0]],
          [1000, 1000],
          replica,
          'act-plan',
          tenant,
          capability,
          'route_plan',
          '[{"kind":"tenant","key":"' + tenant + '","limit":1000},{"kind":"instance","key":"' + instances[0] + '","limit":1000}]',
          '{}',
          now,
          versions[0],
        ],
      ],
      ['settle-route', ['act-plan', 'completed', replica, 0, 0, false]],
    ]);
    assert.ok(
      new Set(writes.map((e) => e.query)).size >= 7,
      `only ${new Set(writes.map((e) => e.query)).size} statements of the writes were explained`,
    );
    for (const e of writes) assertIndexedStatement(e);
    assertIndexed('lock-route-replica', await plans('lock-route-replica', ['act-plan']));
    assertIndexed('read-route', await plans('read-route', ['act-plan']));
    assertIndexed('expire-select-replicas', await plans('expire-select-replicas', [now, 200]));
    assertIndexed('expire-reserved-routes', await plans('expire-reserved-routes', [[data.ids.replica(1)]]));
    assertIndexed('load-bindings', await plans('load-bindings', [[tenant], [capability], [instances[0]]]));
    assertIndexed('load-bound-capabilities', await plans('load-bound-capabilities', [[instances[0]]]));
  });

  it('catalog statements use indexes on bindings and replicas', async () => {
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
