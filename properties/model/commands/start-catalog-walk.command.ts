// Read the first page of a tenant's catalog ([catalog-tenant-visibility],
// [page-*]). The page must hold exactly the first matches of the model's view
// at the current revision; the walk is kept open so later commands can page
// through it while the catalog changes underneath.
import fc from 'fast-check';
import type { CatalogContext } from '../../../contract/records.ts';
import { diverged, expectProperty } from '../../check/violations.ts';
import type { RunContext } from '../../targets/target.ts';
import { describeObservation, observe, RegistryCommand } from '../command-support.ts';
import type { ModelWalk } from '../model-state.ts';
import type { RegistryModel } from '../registry-model.ts';
import { pageDisagreement, visibleCapabilities } from '../rules/catalog.ts';
import { PROFILES, TENANTS, type ProfileKey, type TenantKey } from '../../targets/universe.ts';
import { definitionLookup, foreignItems, MAX_OPEN_WALKS } from './walk-support.ts';

export class StartCatalogWalkCommand extends RegistryCommand {
  constructor(
    readonly tenant: TenantKey,
    readonly limit: number,
    readonly profile: ProfileKey | null,
  ) {
    super();
  }

  check(): boolean {
    return true;
  }

  protected async act(m: RegistryModel, run: RunContext): Promise<void> {
    const tenant = m.u.tenant(this.tenant);
    const profile = this.profile === null ? null : m.u.profile(this.profile);
    const ctx: CatalogContext = { tenant_id: tenant, allow_unbound: false };
    // The generated size, within the page size the target declares.
    const limit = Math.min(this.limit, run.store.limits.max_page_size);
    const { obs } = await observe(run, () => run.store.queryCatalog({ limit, ...(profile ? { profile } : {}) }, ctx));
    if (!obs.ok) return diverged(`${this}: answered ${describeObservation(obs)}`);
    const page = obs.value;
    const foreign = foreignItems(m, tenant, page);
    expectProperty(
      'tenant-isolation',
      foreign.length === 0,
      () => `${this}: tenant ${tenant} was shown ${foreign.join(', ')}, visible only to another tenant`,
    );
    const expected = visibleCapabilities(m.s, tenant, profile);
    const walk: ModelWalk = { tenant, limit, profile, revision: m.s.revision, expected, returned: 0, total: expected.length, cursor: null };
    const disagreement = pageDisagreement(walk, page, definitionLookup(m));
    if (disagreement) diverged(`${this}: ${disagreement}`);
    walk.returned = page.capabilities.length;
    walk.cursor = page.next_cursor;
    if (walk.cursor !== null) m.s.walks = [...m.s.walks, walk].slice(-MAX_OPEN_WALKS);
  }

  toString(): string {
    return `walk the catalog of tenant-${this.tenant}, ${this.limit} per page${this.profile ? `, profile ${this.profile}` : ''}`;
  }
}

export const startCatalogWalkCommand = () =>
  fc
    .tuple(fc.constantFrom(...TENANTS), fc.integer({ min: 1, max: 3 }), fc.option(fc.constantFrom(...PROFILES), { nil: null }))
    .map(([t, l, p]) => new StartCatalogWalkCommand(t, l, p));
