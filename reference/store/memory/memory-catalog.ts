// Catalog views of the memory store (spec.md §7). A view lists every
// capability visible in one context with the versions that make it visible;
// it is computed on first use at a revision and dropped when the revision
// advances, so a page walk reads one publication.
import type { CatalogContext, CapabilityPage, CatalogQuery, RegistryLimits, ResolvedCapability } from '../../../contract/records.ts';
import { assemblePage, normaliseQuery, textMatches, type CatalogChoices } from '../../domain/catalog.ts';
import { bindingChainValid } from '../../domain/eligibility.ts';
import { compareBytes } from '../../domain/ordering.ts';
import type { CatalogEntry, MemoryState, StoredVersion } from './memory-state.ts';

const INTERNAL_VIEW = '\u0000internal';

function tenantView(state: MemoryState, tenantId: string): CatalogEntry[] {
  const byCapability = new Map<string, Set<StoredVersion>>();
  for (const b of state.bindingsByTenant.get(tenantId) ?? []) {
    const instance = state.instances.get(b.record.instance_id);
    const version = instance && state.versions.get(instance.version_id);
    const type = version && state.types.get(version.connector_type_id);
    if (!version || !bindingChainValid(b.record, instance, version, type)) continue;
    let set = byCapability.get(b.record.capability_id);
    if (!set) byCapability.set(b.record.capability_id, (set = new Set()));
    set.add(version);
  }
  return toEntries(state, byCapability);
}

function internalView(state: MemoryState): CatalogEntry[] {
  const byCapability = new Map<string, Set<StoredVersion>>();
  for (const [capabilityId, versionIds] of state.versionsByCapability) {
    for (const id of versionIds) {
      const v = state.versions.get(id)!;
      if (v.status !== 'active' || !v.supply_chain_qualified || !state.types.get(v.connector_type_id)?.enabled) continue;
      let set = byCapability.get(capabilityId);
      if (!set) byCapability.set(capabilityId, (set = new Set()));
      set.add(v);
    }
  }
  return toEntries(state, byCapability);
}

function toEntries(state: MemoryState, byCapability: Map<string, Set<StoredVersion>>): CatalogEntry[] {
  const entries: CatalogEntry[] = [];
  for (const [id, versions] of byCapability) entries.push({ visible: state.definitions.get(id)!, versions: [...versions] });
  return entries.sort((a, b) => compareBytes(a.visible.id, b.visible.id));
}

/** The view of a context: tenant context wins over unbound ([catalog-tenant-precedence]). */
function view(state: MemoryState, ctx: CatalogContext): CatalogEntry[] {
  const key = ctx.tenant_id ?? (ctx.allow_unbound ? INTERNAL_VIEW : null);
  if (key === null) return [];
  let entries = state.catalogViews.get(key);
  if (!entries) {
    entries = ctx.tenant_id !== null ? tenantView(state, ctx.tenant_id) : internalView(state);
    state.catalogViews.set(key, entries);
  }
  return entries;
}

export function queryCatalog(
  state: MemoryState,
  query: CatalogQuery,
  ctx: CatalogContext,
  limits: RegistryLimits,
  choices: CatalogChoices,
): CapabilityPage {
  const q = normaliseQuery(query, state.revision, limits, choices);
  const matches = view(state, ctx)
    .filter(
      (e) =>
        (q.capabilityId === undefined || e.visible.id === q.capabilityId) &&
        (q.needle === undefined || textMatches(e.visible.definition, q.needle)) &&
        (q.profile === undefined || e.versions.some((v) => v.declaresProfile(q.profile!))),
    )
    .map((e) => e.visible);
  return assemblePage(matches, q, state.revision, limits, choices);
}

export function getCapability(state: MemoryState, capabilityId: string, ctx: CatalogContext): ResolvedCapability | null {
  const entry = view(state, ctx).find((e) => e.visible.id === capabilityId);
  return entry ? { definition: entry.visible.definition, catalog_revision: state.revision } : null;
}
