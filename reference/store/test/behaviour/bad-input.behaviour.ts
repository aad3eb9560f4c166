// Bad input (spec.md [wire-closed-records], [error-changes-nothing]): every
// malformed record, id, cursor, limit or outcome is INVALID_REQUEST and leaves
// the store exactly as it was. Mutations are generated with fast-check from a
// valid record; each kind of mutation used here is invalid under any schema
// this contract allows, so the expectation never depends on the store.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { RegistryStore } from '../../registry-store.ts';
import { rejectsWith, snapshot } from './expect.ts';
import { b, HOUR, withWorld, type Fleet, type StoreFactory, type World } from './world.ts';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** JSON paths of every value in a record, not descending into free-form schemas. */
function paths(value: Json, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (value === null || typeof value !== 'object') return [prefix];
  const out: Array<Array<string | number>> = prefix.length ? [prefix] : [];
  const entries: Array<[string | number, Json]> = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  for (const [k, v] of entries) {
    if (k === 'input_schema' || k === 'output_schema') out.push([...prefix, k]);
    else out.push(...paths(v, [...prefix, k]));
  }
  return out;
}

function setAt(
  record: Json,
  path: Array<string | number>,
  replace: (old: Json, parent: Json[] | { [k: string]: Json }, key: string | number) => void,
): Json {
  const copy = structuredClone(record);
  let parent = copy as Json[] | { [k: string]: Json };
  for (const k of path.slice(0, -1)) parent = (parent as Record<string | number, Json>)[k] as Json[] | { [k: string]: Json };
  const key = path[path.length - 1]!;
  replace((parent as Record<string | number, Json>)[key]!, parent, key);
  return copy;
}

/** A mutation that no schema of the contract accepts at that place. */
function mutation(record: Json): fc.Arbitrary<{ what: string; value: Json }> {
  const all = paths(record);
  const objects = all.filter((p) => {
    let v: Json = record;
    for (const k of p) v = (v as Record<string | number, Json>)[k]!;
    return (
      v !== null && typeof v === 'object' && !Array.isArray(v) && p[p.length - 1] !== 'input_schema' && p[p.length - 1] !== 'output_schema'
    );
  });
  const notArrays = all.filter((p) => {
    let v: Json = record;
    for (const k of p) v = (v as Record<string | number, Json>)[k]!;
    return !Array.isArray(v);
  });
  return fc.oneof(
    fc
      .record({ path: fc.constantFrom([], ...objects), name: fc.constantFrom('secret', 'tenant', 'extra_field', 'password') })
      .map(({ path, name }) => ({
        what: `unknown field ${name} at /${path.join('/')}`,
        value: path.length
          ? setAt(record, path, (old) => ((old as Record<string, Json>)[name] = 'x'))
          : { ...(record as object), [name]: 'x' },
      })),
    fc.record({ path: fc.constantFrom(...notArrays), bad: fc.constantFrom<Json>([], 42.5, -1.25) }).map(({ path, bad }) => ({
      what: `/${path.join('/')} = ${JSON.stringify(bad)}`,
      value: setAt(record, path, (_old, parent, key) => ((parent as Record<string | number, Json>)[key] = bad)),
    })),
  );
}

const RUNS = Number(process.env['FC_RUNS'] ?? 25);
const seedOption = process.env['FC_SEED'] ? { seed: Number(process.env['FC_SEED']) } : {};

async function refusesAll(w: World, f: Fleet, record: Json, call: (s: RegistryStore, v: Json) => Promise<unknown>): Promise<void> {
  const before = await snapshot(w, [f]);
  await fc.assert(
    fc.asyncProperty(mutation(record), async ({ value }) => {
      await rejectsWith(call(w.store, value), 'INVALID_REQUEST');
    }),
    { numRuns: RUNS, ...seedOption },
  );
  assert.deepEqual(await snapshot(w, [f]), before, 'a refused call changed state');
}

export function badInputBehaviour(factory: StoreFactory): void {
  describe('bad input', () => {
    it('[wire-closed-records] malformed records are INVALID_REQUEST and change nothing', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'bad' });
        const records: Array<[string, Json, (s: RegistryStore, v: Json) => Promise<unknown>]> = [
          ['type', b.connectorType('ctype_bad_new') as unknown as Json, (s, v) => s.putConnectorType(v as never)],
          [
            'version',
            b.version('cver_bad_new', f.typeId, [b.capability('cap:bad:new')], { version: '9.0.0' }) as unknown as Json,
            (s, v) => s.admitVersion(v as never),
          ],
          ['instance', { ...f.instance, config_revision: 2 } as unknown as Json, (s, v) => s.putInstance(v as never)],
          ['binding', { ...f.binding, policy_revision: 2 } as unknown as Json, (s, v) => s.putBinding(v as never)],
          ['policy', b.policy('quota:bad') as unknown as Json, (s, v) => s.putAdmissionPolicy(v as never)],
          [
            'replica',
            b.replica('crepl_bad_new', f.instance.id, f.version.id, w.now() + HOUR) as unknown as Json,
            (s, v) => s.provisionReplica(v as never),
          ],
          ['health', b.health(2, w.now() + HOUR) as unknown as Json, (s, v) => s.reportHealth(f.replicas[0]!.id, v as never)],
          [
            'resolve',
            { action_id: 'act-bad', capability_id: f.capabilityIds[0]!, topology: { region: 'eu' } },
            (s, v) => s.resolve('tenant-a', v as never),
          ],
        ];
        for (const [, record, call] of records) await refusesAll(w, f, record, call);
      }));

    it('[error-changes-nothing] bad ids, cursors, limits and outcomes are refused without effect', () =>
      withWorld(factory, async (w) => {
        const f = await w.fleet({ name: 'badid' });
        const v = await w.resolve('tenant-a', 'act-badid', f.capabilityIds[0]!);
        const actions = [{ tenant: 'tenant-a', action: 'act-badid' }];
        const before = await snapshot(w, [f], actions);
        const s = w.store;
        // Empty, too long, or holding a character no identifier pattern allows.
        const ids = fc.oneof(
          fc.constantFrom('', 'x'.repeat(300)),
          fc
            .tuple(
              fc.string({ maxLength: 20 }),
              fc.constantFrom(' ', '/', '#', '?', 'é', '\n', '%', '"', '\u0000'),
              fc.string({ maxLength: 20 }),
            )
            .map(([a, c, z]) => a + c + z),
        );
        await fc.assert(
          fc.asyncProperty(ids, async (id) => {
            await rejectsWith(s.getReplica(`crepl_${id}`), 'INVALID_REQUEST');
            await rejectsWith(s.getInstance(`cinst_${id}`), 'INVALID_REQUEST');
            await rejectsWith(s.resolve('tenant-a', { action_id: id, capability_id: f.capabilityIds[0]! }), 'INVALID_REQUEST');
            await rejectsWith(s.resolve(id, { action_id: 'act-ok', capability_id: f.capabilityIds[0]! }), 'INVALID_REQUEST');
            await rejectsWith(s.settle('tenant-a', id, v.assignment, 'completed'), 'INVALID_REQUEST');
            await rejectsWith(s.route('tenant-a', id), 'INVALID_REQUEST');
          }),
          { numRuns: RUNS, ...seedOption },
        );
        for (const outcome of ['', 'COMPLETED', 'done', 'candidate'])
          await rejectsWith(s.settle('tenant-a', 'act-badid', v.assignment, outcome as never), 'INVALID_REQUEST');
        for (const limit of [0, -5, 2.5, 1e9])
          await rejectsWith(s.queryCatalog({ limit }, { tenant_id: 'tenant-a', allow_unbound: false }), 'INVALID_REQUEST');
        const rev = await s.catalogRevision();
        for (const cursor of ['', 'nocolon', ':x', `${rev}:`, 'abc:def'])
          await rejectsWith(s.queryCatalog({ cursor }, { tenant_id: 'tenant-a', allow_unbound: false }), 'INVALID_REQUEST');
        for (const limit of [0, -1, 0.5, 1e9]) await rejectsWith(s.expireLeases(limit), 'INVALID_REQUEST');
        await rejectsWith(s.queryCatalog({ unknown: 1 } as never, { tenant_id: 'tenant-a', allow_unbound: false }), 'INVALID_REQUEST');
        await rejectsWith(s.getAdmissionCounter('planet' as never, 'x'), 'INVALID_REQUEST');
        await rejectsWith(s.setVersionStatus('cver_bad id', 'active'), 'INVALID_REQUEST');
        await rejectsWith(s.setConnectorTypeEnabled(f.typeId, 'yes' as never), 'INVALID_REQUEST');
        assert.deepEqual(await snapshot(w, [f], actions), before);
      }));
  });
}
