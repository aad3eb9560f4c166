// What the two catalog walk commands share: where expected definitions come
// from, and which items of a page only another tenant may see.
import type { CapabilityDefinition, CapabilityPage } from '../../../contract/records.ts';
import type { RegistryModel } from '../registry-model.ts';
import { definitionOf, visibleCapabilities } from '../rules/catalog.ts';
import { CAPABILITIES, TENANTS } from '../../targets/universe.ts';

/** Open walks the model keeps; older ones are simply abandoned, as clients do. */
export const MAX_OPEN_WALKS = 3;

export function definitionLookup(m: RegistryModel): (id: string) => CapabilityDefinition | undefined {
  return (id) => {
    const key = CAPABILITIES.find((c) => m.u.capability(c) === id);
    return key ? definitionOf(m.u.capabilityRecord(key)) : undefined;
  };
}

/** Items on a page of `tenant` that the model shows only to some other tenant. */
export function foreignItems(m: RegistryModel, tenant: string, page: CapabilityPage): string[] {
  const own = new Set(visibleCapabilities(m.s, tenant));
  const others = new Set(
    TENANTS.map((t) => m.u.tenant(t))
      .filter((t) => t !== tenant)
      .flatMap((t) => visibleCapabilities(m.s, t)),
  );
  return page.capabilities.map((d) => d.capability.id).filter((id) => !own.has(id) && others.has(id));
}

/** A page in a few words: its revision and the ids it holds. */
export function describePage(page: CapabilityPage): string {
  return `a page at revision ${page.catalog_revision} holding [${page.capabilities.map((d) => d.capability.id).join(', ')}]`;
}
