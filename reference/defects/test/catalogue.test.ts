// The catalogue holds a defect for every MUST clause of spec.md, each named
// after its file and built for the stores its layer runs on, so a clause
// added to the contract without a defect, or a defect file that would never
// run, fails here.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clauses } from '../../../contract/clauses.ts';
import { defectNamed, loadDefects, UnknownDefect } from '../catalogue.ts';

describe('the catalogue of deliberate defects', () => {
  it('has at least one defect for every MUST clause of spec.md', async () => {
    const covered = new Set((await loadDefects()).map((d) => d.clause));
    const must = [...clauses().values()].filter((c) => c.keyword.startsWith('MUST')).map((c) => c.id);
    assert.ok(must.length > 0);
    assert.deepEqual(
      must.filter((id) => !covered.has(id)),
      [],
    );
  });

  it('runs store defects on both stores (but where what they break cannot happen), HTTP defects over memory, and every defect somewhere', async () => {
    // Contention needs two resolves in flight at once, which the memory store never has.
    const onlyWhereItHappens: Record<string, string[]> = { 'contention-as-capacity-exceeded': ['postgres'] };
    for (const d of await loadDefects()) {
      if (d.layer === 'store') assert.deepEqual([...d.stores].sort(), onlyWhereItHappens[d.name] ?? ['memory', 'postgres'], d.name);
      if (d.layer === 'http') assert.deepEqual(d.stores, ['memory'], d.name);
      assert.ok(d.stores.length > 0, d.name);
    }
  });

  it('finds a defect by name and names the known ones when asked for another', async () => {
    assert.equal((await defectNamed('settle-skip-fence')).clause, 'settle-fence');
    await assert.rejects(
      defectNamed('settle-skip-fance'),
      (err: unknown) => err instanceof UnknownDefect && err.known.includes('settle-skip-fence'),
    );
  });
});
