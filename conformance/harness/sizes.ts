// Sizes a case uses, derived from the limits the target declares
// (spec.md [limits-declared]): never a number a legal registry could refuse.
// A case that needs more than the limits allow says so with NotProvocable,
// which ends it in `skip`, not `error`.
import { canonicalJson } from '../../contract/canonical-json.js';
import { defaultPageLimit, type Capability, type RegistryLimits } from '../../contract/records.ts';
import type { CaseContext } from './context.ts';
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
  /** One fleet per version: each holds at most max_capabilities_per_version of the capabilities, within max_manifest_bytes. */
  fleets: Fleet[];
}

const SOME_DIGEST = `sha256:${'0'.repeat(64)}`;

/** A capability's definition as [records-version-limits] measures it: the canonical `{capability, contract_digest, schema_digest}`. */
export function definitionBytes(capability: Capability): number {
  return Buffer.byteLength(canonicalJson({ capability, contract_digest: SOME_DIGEST, schema_digest: SOME_DIGEST }));
}

/** Room left in a version's body for ids that differ between versions of a case (counters grow a digit). */
const ID_SLACK_BYTES = 64;

/**
 * Capability `name` padded so its definition is as large as one version holding it alone can carry: within
 * max_capability_bytes, a manifest of it and the default profile within max_manifest_bytes, and its admission
 * within max_body_bytes (less a few bytes for ids). Sizes grow one byte per byte of padding, so each bound
 * is met exactly by measuring the unpadded capability.
 */
export function largestCapability(ctx: Pick<CaseContext, 'limits' | 'build' | 'ids'>, name: string, most = Infinity): Capability {
  const { max_capability_bytes: each, max_manifest_bytes: manifest, max_body_bytes: body } = ctx.limits;
  const padded = (padding: number) =>
    ctx.build.capability(ctx.ids.capability(name), { input_schema: { description: 'x'.repeat(padding) } });
  const bare = padded(0);
  const version = ctx.build.version(ctx.ids.version(), ctx.ids.type(), [bare], { version: '1.0.0' });
  const room = Math.min(
    each - definitionBytes(bare),
    manifest - Buffer.byteLength(canonicalJson(version.manifest)),
    body - ID_SLACK_BYTES - Buffer.byteLength(JSON.stringify(version)),
    most - definitionBytes(bare),
  );
  return padded(Math.max(0, room));
}

/** Room a manifest keeps for its profiles and brackets, and a version's body for everything but its manifest. */
const MANIFEST_REST_BYTES = 512;
const ADMISSION_REST_BYTES = 4096;

/**
 * The capabilities in order, split into versions that each stay within the
 * declared count and the manifest and body bytes ([records-version-limits],
 * [wire-body-limit]): a limit of 12 KiB per manifest holds far fewer than 186
 * capabilities even when 186 are allowed.
 */
export function versionGroups(
  limits: Pick<RegistryLimits, 'max_capabilities_per_version' | 'max_manifest_bytes' | 'max_body_bytes'>,
  capabilities: Capability[],
): Capability[][] {
  const room = Math.min(limits.max_manifest_bytes - MANIFEST_REST_BYTES, limits.max_body_bytes - ADMISSION_REST_BYTES);
  const groups: Capability[][] = [];
  let group: Capability[] = [];
  let bytes = 0;
  for (const capability of capabilities) {
    const size = Buffer.byteLength(canonicalJson(capability)) + 1;
    if (group.length > 0 && (group.length >= limits.max_capabilities_per_version || bytes + size > room)) {
      groups.push(group);
      group = [];
      bytes = 0;
    }
    group.push(capability);
    bytes += size;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/**
 * Makes every capability visible to one tenant (or, with `unbound`, admitted
 * and active but bound for nobody), spread over as many versions
 * (each with its own type, instance, replica and bindings) as
 * max_capabilities_per_version and max_manifest_bytes require, so a catalog of any size can be
 * built under any legal limit.
 */
export async function spreadCatalog(
  ctx: CaseContext,
  capabilities: Capability[],
  spec: Omit<FleetSpec, 'capabilities' | 'bound'> & { unbound?: boolean } = {},
): Promise<SpreadCatalog> {
  const { unbound, ...fleetSpec } = spec;
  const tenant = spec.tenant ?? ctx.ids.tenant();
  const fleets: Fleet[] = [];
  for (const group of versionGroups(ctx.limits, capabilities)) {
    fleets.push(await ctx.fx.fleet({ ...fleetSpec, tenant, capabilities: group, ...(unbound ? { bound: [] } : {}) }));
  }
  return { tenant, fleets };
}

/**
 * `count` capabilities of the smallest shape openapi.yaml allows (id, a one-character name, kind, the schema
 * `true`), so a manifest of them stays within max_manifest_bytes for as many as any legal limit lets it.
 */
export function smallestCapabilities(ctx: Pick<CaseContext, 'ids'>, count: number): Capability[] {
  return Array.from({ length: count }, (_, i) => ({ id: ctx.ids.capability(String(i)), name: 'c', kind: 'tool', input_schema: true }));
}

/** A capability whose definition ([records-version-limits]) is exactly `bytes` long, or as near above as its bare shape allows. */
export function capabilityOfBytes(ctx: Pick<CaseContext, 'build' | 'ids'>, name: string, bytes: number): Capability {
  const id = ctx.ids.capability(name);
  // The input schema is free-form JSON, so it carries the bulk without breaking any other bound; sizes grow
  // one byte per byte of padding.
  const padded = (padding: number) => ctx.build.capability(id, { input_schema: { description: 'x'.repeat(padding) } });
  return padded(Math.max(0, bytes - definitionBytes(padded(0))));
}

/**
 * A batch body of `count` items: one real write first, so a registry that applies or refuses the batch shows
 * it, then the smallest item BatchItemEnvelope admits (an operation name alone, rejected by itself).
 */
export function smallestBatch(ctx: Pick<CaseContext, 'build' | 'ids'>, count: number) {
  const first = { op: 'put_connector_type' as const, record: ctx.build.connectorType(ctx.ids.type()) };
  const body = JSON.stringify({ items: [first, ...Array.from({ length: count - 1 }, () => ({ op: 'put_binding' }))] });
  return { first: first.record, body, bytes: Buffer.byteLength(body) };
}
