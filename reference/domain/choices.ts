// The choices the contract leaves to each registry (spec.md §20, the
// implementation-defined parts of its clauses), as switchable behaviours of
// the reference. The reference's own answers are REFERENCE_CHOICES; a variant
// (reference/variant/) draws others from each choice's legal range, so the
// suites can be shown to accept every registry the contract allows, not only
// this one. Both stores and the HTTP layer read the same object.

export type CursorFormat = 'revision-and-id' | 'base64url';
export type FenceTokenFormat = 'route-uuidv7' | 'uuid' | 'counter-and-random';
export type RequestIdFormat = 'prefix-and-counter' | 'uuid';
export type RewriteAnswer = 'conflict' | 'unchanged';
export type ClaimTypeAnswer = 'UNAUTHENTICATED' | 'FORBIDDEN';

export interface ReferenceChoices {
  /** How far the catalog revision moves per change ([revision-advances]: only "strictly"). */
  readonly revisionStep: number;
  /** Mixed into the FNV-1a offset basis of the tie-break hash ([route-tiebreak]); 0 is the documented hash. */
  readonly tiebreakSalt: number;
  readonly fenceTokens: FenceTokenFormat;
  readonly cursors: CursorFormat;
  readonly requestIds: RequestIdFormat;
  /** `retry_after_ms` of CAPACITY_EXCEEDED ([error-capacity-guidance]: any positive integer). */
  readonly capacityRetryAfterMs: number;
  /** A page holds at most this share of its limit, at least one item ([page-fill]). */
  readonly pageFillPercent: number;
  /** A stale cursor is checked before the limit (true), or after it ([page-stale-cursor], decision 27). */
  readonly staleCursorFirst: boolean;
  /** A page that ends at the last match still carries a cursor (true), as a registry that does not look ahead does; the page after it is empty ([page-cursor], decision 35). */
  readonly trailingCursor: boolean;
  /** [lease-expiry-effect]: an expired replica's lease is kept as it was (already past) or set to the instant of expiry. */
  readonly expiredLease: 'kept' | 'now';
  /** [circuit-read]: a past `open_until` after the open period reads as that instant (true) or null. */
  readonly keepPastOpenUntil: boolean;
  /** [circuit-read]: after a `completed` settlement `open_until` reads as the past instant (true) or null. */
  readonly keepOpenUntilOnCompleted: boolean;
  /** [records-version-immutable]: the original admission after a status change. */
  readonly readmitOriginal: RewriteAnswer;
  /** [records-replica-provision]: the original provisioning after health reports. */
  readonly reprovisionOriginal: RewriteAnswer;
  /** [route-replica-unavailable]: which of several lowest-priority eligible bindings is named. */
  readonly equalPriorityInstance: 'first' | 'last';
  /** [wire-json]: a body-taking operation with no Content-Type and an empty body. */
  readonly emptyBodyWithoutMediaType: 'INVALID_REQUEST' | 'UNSUPPORTED_MEDIA_TYPE';
  /** Decision 28: a path parameter outside its pattern. */
  readonly badPathParameter: 'INVALID_REQUEST' | 'NOT_FOUND';
  /** [wire-integers]: `1.0` for an integer field is read as 1 (true) or refused. */
  readonly readIntegralFractions: boolean;
  /** [auth-time]: seconds of leeway on `exp` and on `nbf` (0 to 30 each). */
  readonly expLeewaySeconds: number;
  readonly nbfLeewaySeconds: number;
  /** [auth-roles]: a token whose scope or tenant_id has the wrong type. */
  readonly badClaimType: ClaimTypeAnswer;
  /** [error-precedence]: the body limit is checked before the media type (true), or after it. */
  readonly sizeBeforeMediaType: boolean;
  /** [error-precedence]: path and query parameters are validated before the body is read (true), or after. */
  readonly paramsBeforeBody: boolean;
  /**
   * [error-precedence]: the rules of one write in the reference's order, or
   * reversed where they can be (a version's uniqueness before its type and
   * evidence; an instance's references before its immutable fields).
   */
  readonly writeRulesReversed: boolean;
}

export const REFERENCE_CHOICES: ReferenceChoices = Object.freeze({
  revisionStep: 1,
  tiebreakSalt: 0,
  fenceTokens: 'route-uuidv7',
  cursors: 'revision-and-id',
  requestIds: 'prefix-and-counter',
  capacityRetryAfterMs: 100,
  pageFillPercent: 100,
  staleCursorFirst: true,
  trailingCursor: false,
  expiredLease: 'kept',
  keepPastOpenUntil: true,
  keepOpenUntilOnCompleted: false,
  readmitOriginal: 'conflict',
  reprovisionOriginal: 'conflict',
  equalPriorityInstance: 'first',
  emptyBodyWithoutMediaType: 'INVALID_REQUEST',
  badPathParameter: 'INVALID_REQUEST',
  readIntegralFractions: true,
  expLeewaySeconds: 0,
  nbfLeewaySeconds: 30,
  badClaimType: 'UNAUTHENTICATED',
  sizeBeforeMediaType: false,
  paramsBeforeBody: false,
  writeRulesReversed: false,
} satisfies ReferenceChoices);

export function referenceChoices(choices: Partial<ReferenceChoices> | undefined): ReferenceChoices {
  return choices ? Object.freeze({ ...REFERENCE_CHOICES, ...choices }) : REFERENCE_CHOICES;
}
