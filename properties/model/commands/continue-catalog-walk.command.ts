// Read the next page of an open catalog walk (the stale-cursor property,
// [page-stale-cursor], [page-cursor], [page-revision]). If any catalog write
// applied since the walk's first page, the cursor is stale and the answer
// must be STALE_CURSOR; otherwise — replica churn and routing included — the
// page continues the walk at its revision: no gaps, no duplicates, the same
// total, exactly the model's items. Never a page of another revision.
import fc from 'fast-check';
import { expectProperty } from '../../check/violations.ts';
import type { RunContext } from '../../targets/target.ts';
import { describeObservation, observe, RegistryCommand } from '../command-support.ts';
import type { RegistryModel } from '../registry-model.ts';
import { pageDisagreement } from '../rules/catalog.ts';
import { definitionLookup, describePage, foreignItems, MAX_OPEN_WALKS } from './walk-support.ts';

export class ContinueCatalogWalkCommand extends RegistryCommand {
  constructor(readonly walk: number) {
    super();
  }

  check(m: Readonly<RegistryModel>): boolean {
    return m.s.walks.length > 0;
  }

  protected async act(m: RegistryModel, run: RunContext): Promise<void> {
    const index = this.walk % m.s.walks.length;
    const walk = structuredClone(m.s.walks[index]!);
    const query = { limit: walk.limit, cursor: walk.cursor!, ...(walk.profile ? { profile: walk.profile } : {}) };
    const { obs } = await observe(run, () => run.store.queryCatalog(query, { tenant_id: walk.tenant, allow_unbound: false }));
    const stale = walk.revision !== m.s.revision;
    const remaining = m.s.walks.filter((_, i) => i !== index);
    if (stale) {
      expectProperty(
        'stale-cursor',
        !obs.ok && obs.error.code === 'STALE_CURSOR',
        () =>
          `${this}: the catalog moved from revision ${walk.revision} to ${m.s.revision} during the walk, yet the registry answered ${obs.ok ? describePage(obs.value) : obs.error.code} instead of STALE_CURSOR`,
      );
      m.s.walks = remaining;
      return;
    }
    expectProperty(
      'stale-cursor',
      obs.ok,
      () => `${this}: answered ${describeObservation(obs)} although no catalog write happened since the walk began`,
    );
    const foreign = foreignItems(m, walk.tenant, obs.value);
    expectProperty(
      'tenant-isolation',
      foreign.length === 0,
      () => `${this}: tenant ${walk.tenant} was shown ${foreign.join(', ')}, visible only to another tenant`,
    );
    const disagreement = pageDisagreement(walk, obs.value, definitionLookup(m));
    expectProperty('stale-cursor', disagreement === null, () => `${this}: ${disagreement}`);
    walk.returned += obs.value.capabilities.length;
    walk.cursor = obs.value.next_cursor;
    m.s.walks = walk.cursor === null ? remaining : [...remaining, walk].slice(-MAX_OPEN_WALKS);
  }

  toString(): string {
    return `read the next page of open walk ${this.walk + 1}`;
  }
}

export const continueCatalogWalkCommand = () => fc.integer({ min: 0, max: 2 }).map((i) => new ContinueCatalogWalkCommand(i));
