// Sizes a case uses, derived from the limits the target declares
// (spec.md [limits-declared]): never a number a legal registry could refuse.
// A case that needs more than the limits allow says so with NotProvocable,
// which ends it in `skip`, not `error`.
import { defaultPageLimit, type Capability, type RegistryLimits } from '../../contract/records.ts';
import type { CaseContext } from './context.ts';
import { NotProvocable } from './failure.ts';
import type { Fleet, FleetSpec } from './fixtures.ts';

export { defaultPageLimit };

/** Page sizes for walks over `count` matches: 1, a few in between, count and count + 1, each legal. */
export function walkLimits(limits: Pick<RegistryLimits, 'max_page_size'>, count: number): number[] {
  const wanted = [1, 2, Math.ceil(count / 2), count - 1, count, count + 1, limits.max_page_size];
  return [...new Set(wanted.filter((n) => n >= 1 && n <= limits.max_page_size))].sort((a, b) => a - b);
}

/** The largest page size a case may ask for, at most `wanted`. */
export function pageLimit(limits: Pick<RegistryLimits, 'max_page_size'>, wanted: number): number {
  return Math.max(1, Math.min(wanted, limits.max_page_size));
}

export interface SpreadCatalog {
  tenant: string;
  /** One fleet per version: each holds at most max_capabilities_per_version of the capabilities. */
  fleets: Fleet[];
}

/**
 * Makes every capability visible to one tenant (or, with `unbound`, admitted
 * and active but bound for nobody), spread over as many versions
 * (each with its own type, instance, replica and bindings) as
 * max_capabilities_per_version requires, so a catalog of any size can be
 * built under any legal limit.
 */
export async function spreadCatalog(ctx: CaseContext, capabilities: Capability[], spec: Omit<FleetSpec, 'capabilities' | 'bound'> & { unbound?: boolean } = {}): Promise<SpreadCatalog> {
  const { unbound, ...fleetSpec } = spec;
  const per = ctx.limits.max_capabilities_per_version;
  const tenant = spec.tenant ?? ctx.ids.tenant();
  const fleets: Fleet[] = [];
  for (let i = 0; i < capabilities.length; i += per) {
    fleets.push(await ctx.fx.fleet({ ...fleetSpec, tenant, capabilities: capabilities.slice(i, i + per), ...(unbound ? { bound: [] } : {}) }));
  }
  return { tenant, fleets };
}
