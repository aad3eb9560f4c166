// Catalog visibility and pages (spec.md §7–§8), from the text: which
// capability ids a tenant sees, the definition the registry must return for
// each, and what one page of a walk holds.
import { canonicalJson } from '../../../contract/canonical-json.js';
import { digestOf } from '../../../contract/digest.ts';
import type { Capability, CapabilityDefinition, CapabilityPage } from '../../../contract/records.ts';
import { compareBytes } from '../json.ts';
import type { ModelState, ModelWalk } from '../model-state.ts';

/** [catalog-tenant-visibility], with the optional profile filter of [catalog-filters]. */
export function visibleCapabilities(s: ModelState, tenant: string, profile: string | null = null): string[] {
  const visible = new Set<string>();
  for (const b of Object.values(s.bindings)) {
    if (b.tenant_id !== tenant || !b.enabled) continue;
    const instance = s.instances[b.instance_id];
    if (!instance || instance.status !== 'enabled' || instance.tenant_id !== tenant) continue;
    const version = s.versions[instance.version_id];
    if (!version || version.status !== 'active' || !s.types[version.type]?.enabled) continue;
    if (!version.capabilities.includes(b.capability_id)) continue;
    if (profile !== null && !version.profiles.includes(profile)) continue;
    visible.add(b.capability_id);
  }
  return [...visible].sort(compareBytes);
}

/** [digest-capability]: the definition the registry returns for a capability. */
export function definitionOf(capability: Capability): CapabilityDefinition {
  return {
    capability,
    contract_digest: digestOf(capability),
    schema_digest: digestOf({ input: capability.input_schema, output: capability.output_schema ?? null }),
  };
}

/** The items the next page of a walk must hold ([page-cursor]): the next `limit` expected ids. */
export function nextSlice(walk: ModelWalk): string[] {
  return walk.expected.slice(walk.returned, walk.returned + walk.limit);
}

/** Whether a page agrees with the walk: revision, total, items in order, and the cursor's presence. */
export function pageDisagreement(
  walk: ModelWalk,
  page: CapabilityPage,
  definitionOfId: (id: string) => CapabilityDefinition | undefined,
): string | null {
  if (page.catalog_revision !== walk.revision)
    return `page carries revision ${page.catalog_revision}, the walk started at ${walk.revision}`;
  if (page.total !== walk.total) return `page total is ${page.total}, the walk's is ${walk.total}`;
  // How full a page is stays open ([page-fill]): any non-empty prefix of the next `limit` matches.
  const want = nextSlice(walk);
  const got = page.capabilities.map((d) => d.capability.id);
  const tooFew = want.length > 0 && got.length === 0;
  if (tooFew || got.length > want.length || got.some((id, i) => id !== want[i]))
    return `page holds [${got.join(', ')}], expected ${want.length > 1 ? `the first 1 to ${want.length} of ` : ''}[${want.join(', ')}]`;
  for (const d of page.capabilities) {
    const expected = definitionOfId(d.capability.id);
    if (!expected || canonicalJson(expected) !== canonicalJson(d))
      return `definition of ${d.capability.id} differs from the admitted capability`;
  }
  const more = walk.returned + got.length < walk.expected.length;
  // A cursor may trail the last match (decision 35); only an empty page never carries one ([page-fill]).
  if (more && page.next_cursor === null) return 'page has no next_cursor although matches remain';
  if (got.length === 0 && page.next_cursor !== null) return 'an empty page carries a next_cursor';
  return null;
}
