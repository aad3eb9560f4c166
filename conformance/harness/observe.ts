// Observing global state on a server other clients may be writing to. The
// catalog revision is one number for the whole registry, so a case can never
// assume nobody else moved it. These helpers separate "the registry did it"
// from "someone else did it" instead of guessing:
//   - a catalog walk restarts on STALE_CURSOR, as the contract tells clients
//     to, but only after checking the revision really moved;
//   - "this action keeps the revision" is judged over several windows, and a
//     window that moved is compared with windows without the action.
import type { CapabilityPage, CatalogQuery } from '../../contract/records.ts';
import type { RegistryClient } from './client.ts';
import type { CaseContext } from './context.ts';
import { expectError, expectOk, fail } from './expect.ts';
import { HarnessError } from './failure.ts';

export interface Walk {
  pages: CapabilityPage[];
  /** How many walks were restarted because the revision moved. */
  restarts: number;
}

const MAX_PAGES = 10_000;

/** Walks every page of a query; restarts when a legitimate STALE_CURSOR interrupts it. */
export async function walkCatalog(
  client: RegistryClient,
  query: Omit<CatalogQuery, 'cursor'> & { unbound?: boolean },
  maxRestarts = 20,
): Promise<Walk> {
  for (let restarts = 0; restarts <= maxRestarts; restarts++) {
    const pages: CapabilityPage[] = [];
    let cursor: string | null = null;
    let stale = false;
    do {
      const reply = await client.call('queryCatalog', { query: { ...query, ...(cursor !== null ? { cursor } : {}) } });
      if (reply.status === 409 && pages.length > 0) {
        expectError(reply, 'STALE_CURSOR', undefined, 'next page of a walk');
        const probe = expectOk(await client.call('queryCatalog', { query }), 'first page after STALE_CURSOR');
        if (probe.catalog_revision === pages[0]!.catalog_revision) {
          fail(`STALE_CURSOR although the catalog revision is still ${probe.catalog_revision}, the revision of the cursor's walk`, {
            exchange: reply.exchange,
            clause: 'page-stale-cursor',
          });
        }
        stale = true;
        break;
      }
      const page: CapabilityPage = expectOk(reply, 'catalog page');
      pages.push(page);
      cursor = page.next_cursor;
      if (pages.length > MAX_PAGES)
        fail(`a walk went on for more than ${MAX_PAGES} pages`, { exchange: reply.exchange, clause: 'page-cursor' });
    } while (cursor !== null);
    if (!stale) return { pages, restarts };
  }
  throw new HarnessError(`the catalog revision changed during each of ${maxRestarts + 1} walks; the target is too busy to observe one`);
}

/**
 * Asserts that `action` does not move the catalog revision. Passes on the
 * first window where the revision held across the action. When it moved in
 * every window, windows without the action decide: if those hold, the action
 * moved it (a failure); if they move too, the target is too busy (an error).
 */
export async function expectRevisionKept(
  ctx: CaseContext,
  what: string,
  action: (attempt: number) => Promise<unknown>,
  attempts = 5,
): Promise<void> {
  const seen: string[] = [];
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const before = await ctx.fx.revision();
    await action(attempt);
    const after = await ctx.fx.revision();
    if (after === before) return;
    seen.push(`${before}→${after}`);
  }
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const before = await ctx.fx.revision();
    const after = await ctx.fx.revision();
    if (after === before) {
      fail(`${what} moved the catalog revision in each of ${attempts} attempts (${seen.join(', ')}), while it holds still without it`, {
        clause: undefined,
      });
    }
  }
  throw new HarnessError(
    `the catalog revision moved in every observation window, with or without ${what}; run this case against a quieter target`,
  );
}

export interface ExactEffect<T> {
  /** Reads the global state. */
  read(): Promise<T>;
  /** Makes the changes whose effect is judged; called once per attempt. */
  act(attempt: number): Promise<void>;
  /** What is wrong with the change from `before` to `after`, or null when it is exactly as expected. */
  check(before: T, after: T): string | null;
  /** Whether nothing changed between two reads. */
  unchanged(before: T, after: T): boolean;
}

/**
 * Asserts an exact effect on global state. Passes on the first attempt whose
 * change is exactly right. When every attempt is off, windows of the same
 * length without the changes decide: if most of those are quiet, the changes
 * themselves had the wrong effect (a failure); otherwise the target is too
 * busy to judge (an error).
 */
export async function expectExactEffect<T>(ctx: CaseContext, what: string, effect: ExactEffect<T>, attempts = 8): Promise<void> {
  const problems: string[] = [];
  let spent = 0;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const started = Date.now();
    const before = await effect.read();
    await effect.act(attempt);
    const problem = effect.check(before, await effect.read());
    if (problem === null) return;
    problems.push(problem);
    spent += Date.now() - started;
  }
  let quiet = 0;
  for (let window = 1; window <= attempts; window++) {
    const before = await effect.read();
    await ctx.sleep(Math.round(spent / attempts));
    if (effect.unchanged(before, await effect.read())) quiet += 1;
  }
  if (quiet >= Math.ceil((attempts * 3) / 4)) {
    fail(
      `${what}: ${problems[0]} (wrong in all ${attempts} attempts, while ${quiet} of ${attempts} equally long windows without the changes were quiet)`,
    );
  }
  throw new HarnessError(
    `${what}: other clients changed the state in most windows, with or without the changes; run this case against a target no one else writes to`,
  );
}
