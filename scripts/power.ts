// npm run power — how much the suites catch. Every deliberate defect of the
// reference (reference/defects/) is built in and judged (scripts/power/):
// the conformance cases of its clause and the property suites that claim
// it, with a fixed seed, on the memory store and, for store-level defects,
// on PostgreSQL (PG_URL, or an embedded server). It prints per clause each
// defect, killed or survived and by what, and a run of every defect rewrites
// docs/power.md, saying which stores it judged them on. Exit 1 when a provokable defect survived or could not be
// judged.
//   POWER_ONLY=settle-fence,reselect-on-retry   clauses or defect names
//   POWER_STORES=memory                         memory, postgres or both
//   POWER_JOBS=2 POWER_SEED=41
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { EXEMPT_CLAUSES } from '../conformance/lint/config.ts';
import { loadDefects } from '../reference/defects/catalogue.ts';
import type { Defect } from '../reference/defects/defect.ts';
import type { StoreKind } from '../reference/store/open-store.ts';
import { powerDatabases, type PowerDatabases } from './power/databases.ts';
import { judge, type Judgement } from './power/judge.ts';
import { caseIndex, planFor } from './power/plan.ts';
import { powerMarkdown, progressLine, summaryLines } from './power/report.ts';

const list = (name: string) => (process.env[name] ?? '').split(',').filter(Boolean);
const ONLY = list('POWER_ONLY');
const STORES = (list('POWER_STORES').length > 0 ? list('POWER_STORES') : ['memory', 'postgres']) as StoreKind[];
const JOBS = Number(process.env['POWER_JOBS'] ?? 2);
const SEED = Number(process.env['POWER_SEED'] ?? 41);
const OUTPUT = new URL('../docs/power.md', import.meta.url);

const started = performance.now();
const load = loadavg()[0]!.toFixed(1);
const defects = (await loadDefects()).filter((d) => ONLY.length === 0 || ONLY.includes(d.name) || ONLY.includes(d.clause));
const index = await caseIndex();
const work: Array<{ defect: Defect; store: StoreKind }> = defects
  .filter((d) => !Object.hasOwn(EXEMPT_CLAUSES, d.clause))
  .flatMap((defect) => STORES.filter((s) => defect.stores.includes(s)).map((store) => ({ defect, store })))
  // The slow PostgreSQL runs first, so the quick memory runs fill in at the end rather than leave a job idle.
  .sort((a, b) => Number(b.store === 'postgres') - Number(a.store === 'postgres'));
console.log(`${work.length} runs of ${defects.length} defects on ${STORES.join(' and ')}, ${JOBS} at a time, seed ${SEED}`);

let databases: PowerDatabases | null = null;
const judgements: Judgement[] = [];
try {
  if (work.some((w) => w.store === 'postgres')) databases = await powerDatabases(process.env['PG_URL']);
  const queue = [...work];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const { defect, store } = next;
      const db = store === 'postgres' ? await databases!.fresh() : null;
      try {
        const j = await judge(defect, planFor(defect, index), { store, seed: SEED, ...(db ? { pgUrl: db.url } : {}) });
        judgements.push(j);
        console.log(progressLine(defect, j));
      } finally {
        await db?.drop();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, JOBS) }, worker));
} finally {
  await databases?.close();
}

const run = {
  defects,
  stores: STORES,
  judgements,
  seed: SEED,
  command: `${process.env['POWER_STORES'] ? `POWER_STORES=${STORES.join(',')} ` : ''}npm run power`,
  date: new Date().toISOString().slice(0, 10),
  machine: `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}`,
  loadAverage: `${load} at the start, ${loadavg()[0]!.toFixed(1)} at the end`,
  seconds: (performance.now() - started) / 1000,
};
console.log(`\n${summaryLines(run).join('\n')}`);
const missed = judgements.filter((j) => j.verdict !== 'killed');
for (const j of missed)
  console.log(`${j.verdict}: [${j.clause}] ${j.defect} on ${j.store}${j.notes.length ? ` (${j.notes.join('; ')})` : ''}`);
if (ONLY.length === 0) {
  writeFileSync(OUTPUT, powerMarkdown(run));
  console.log(`wrote docs/power.md`);
}
process.exitCode = missed.length > 0 ? 1 : 0;
