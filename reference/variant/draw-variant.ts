// A variant of the reference: every limit and every implementation-defined
// choice drawn from its legal range by a seed ([limits-declared], spec.md
// §20). A correct registry may make any of these choices, so the suites must
// qualify every variant; a seed replays one exactly (`fleetproof serve
// --variant SEED`, FLEETPROOF_VARIANT for the tests).
import { LIMIT_MINIMUMS, type RegistryLimits, type VariantInfo } from '../../contract/records.ts';
import type { ReferenceChoices } from '../domain/choices.ts';
import { seededDraw, type Draw } from './prng.ts';

export interface Variant {
  readonly seed: number;
  readonly limits: RegistryLimits;
  readonly choices: ReferenceChoices;
}

const KIB = 1024;
const MIB = 1024 * KIB;

/** A limit from its smallest legal value up, often at the very small end where suites assume most. */
function limitsOf(d: Draw): RegistryLimits {
  const min = LIMIT_MINIMUMS;
  const small = (lo: number, hi: number, big: number) => (d.chance(0.5) ? d.int(lo, hi) : d.logInt(hi + 1, big));
  const max_capability_bytes = d.chance(0.4) ? d.int(min.max_capability_bytes, 8 * KIB) : d.logInt(8 * KIB, 512 * KIB);
  return {
    max_capabilities_per_version: small(min.max_capabilities_per_version, 8, 1000),
    max_manifest_bytes: small(min.max_manifest_bytes, 16 * KIB, 8 * MIB),
    max_capability_bytes,
    max_page_size: small(min.max_page_size, 7, 500),
    max_page_bytes: d.chance(0.4) ? d.int(max_capability_bytes, max_capability_bytes + 4 * KIB) : d.logInt(max_capability_bytes, 8 * MIB),
    max_batch_items: d.chance(0.5) ? min.max_batch_items : d.logInt(min.max_batch_items + 1, 5000),
    // Just above the smallest legal body as often as anywhere else.
    max_body_bytes: d.chance(0.5) ? d.int(min.max_body_bytes, min.max_body_bytes + 4 * KIB) : d.logInt(min.max_body_bytes, 32 * MIB),
    max_expiry_batch: small(min.max_expiry_batch, 8, 20_000),
  };
}

function choicesOf(d: Draw): ReferenceChoices {
  return {
    revisionStep: d.chance(0.3) ? 1 : d.logInt(2, 1_000_000),
    tiebreakSalt: d.int(0, 0xffffffff),
    fenceTokens: d.pick(['route-uuidv7', 'uuid', 'counter-and-random'] as const),
    cursors: d.pick(['revision-and-id', 'base64url'] as const),
    requestIds: d.pick(['prefix-and-counter', 'uuid'] as const),
    capacityRetryAfterMs: d.logInt(1, 60_000),
    pageFillPercent: d.chance(0.5) ? 100 : d.int(1, 99),
    staleCursorFirst: d.chance(0.5),
    keepPastOpenUntil: d.chance(0.5),
    keepOpenUntilOnCompleted: d.chance(0.5),
    readmitOriginal: d.pick(['conflict', 'unchanged'] as const),
    reprovisionOriginal: d.pick(['conflict', 'unchanged'] as const),
    equalPriorityInstance: d.pick(['first', 'last'] as const),
    emptyBodyWithoutMediaType: d.pick(['INVALID_REQUEST', 'UNSUPPORTED_MEDIA_TYPE'] as const),
    badPathParameter: d.pick(['INVALID_REQUEST', 'NOT_FOUND'] as const),
    readIntegralFractions: d.chance(0.5),
    expLeewaySeconds: d.int(0, 30),
    nbfLeewaySeconds: d.int(0, 30),
    badClaimType: d.pick(['UNAUTHENTICATED', 'FORBIDDEN'] as const),
    sizeBeforeMediaType: d.chance(0.5),
    paramsBeforeBody: d.chance(0.5),
    writeRulesReversed: d.chance(0.5),
    // Drawn last, so every earlier choice of a seed stays what it was.
    trailingCursor: d.chance(0.5),
    expiredLease: d.pick(['kept', 'now'] as const),
  };
}

export const MAX_VARIANT_SEED = 0xffffffff;

export function isVariantSeed(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0 && n <= MAX_VARIANT_SEED;
}

/** The variant a seed names: the same seed, the same limits and choices, everywhere. */
export function drawVariant(seed: number): Variant {
  if (!isVariantSeed(seed)) throw new RangeError(`a variant seed is an integer from 0 to ${MAX_VARIANT_SEED}, not ${seed}`);
  const d = seededDraw(seed);
  return Object.freeze({ seed, limits: Object.freeze(limitsOf(d)), choices: Object.freeze(choicesOf(d)) });
}

/** A seed given as text (a flag, FLEETPROOF_VARIANT), or a RangeError naming what is wrong. */
export function parseVariantSeed(text: string): number {
  if (!/^[0-9]{1,10}$/.test(text) || !isVariantSeed(Number(text)))
    throw new RangeError(`a variant seed is an integer from 0 to ${MAX_VARIANT_SEED}, not ${text}`);
  return Number(text);
}

/** What `GET /version` says of a variant. */
export function variantInfo(v: Variant): VariantInfo {
  return { seed: v.seed, choices: { ...v.choices } };
}

/** One line naming a variant's seed and how to replay it. */
export function describeVariant(v: Variant): string {
  const c = v.choices;
  const l = v.limits;
  return (
    `variant ${v.seed}: page size ${l.max_page_size}, ${l.max_capabilities_per_version} capabilities per version, ` +
    `body ${l.max_body_bytes} B, expiry batch ${l.max_expiry_batch}, revision step ${c.revisionStep}, ` +
    `cursors ${c.cursors}${c.trailingCursor ? ' (trailing)' : ''}, fence tokens ${c.fenceTokens}, page fill ${c.pageFillPercent}%`
  );
}
