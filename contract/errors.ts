// The error catalogue of fleetproof-registry/v1: one entry per code, shared by
// the reference server (which produces them) and the conformance harness
// (which expects them). spec.md §2 is the prose form of this table.

export interface ErrorEntry {
  readonly status: number;
  readonly retryable: boolean;
  /** The spec.md clause that defines when the code is returned. */
  readonly clause: string;
  /**
   * Whether a black-box conformance case can provoke the code against a
   * healthy implementation. STORAGE_UNAVAILABLE needs a storage fault and
   * INTERNAL is never correct; both are covered elsewhere (fault tests, the
   * no-5xx cases) and are exempt from the "every code is expected" lint.
   */
  readonly provokable: boolean;
  readonly summary: string;
}

export const ERROR_CATALOGUE = {
  INVALID_REQUEST: {
    status: 400,
    retryable: false,
    clause: 'wire-closed-records',
    provokable: true,
    summary: 'structurally invalid input',
  },
  UNAUTHENTICATED: {
    status: 401,
    retryable: false,
    clause: 'auth-bearer',
    provokable: true,
    summary: 'missing, malformed, expired or wrongly signed token',
  },
  FORBIDDEN: { status: 403, retryable: false, clause: 'auth-roles', provokable: true, summary: 'valid token without the needed role' },
  NOT_FOUND: {
    status: 404,
    retryable: false,
    clause: 'records-reads',
    provokable: true,
    summary: 'record missing or not visible to the caller',
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    retryable: false,
    clause: 'wire-unknown-route',
    provokable: true,
    summary: 'known path, unsupported method',
  },
  CONFLICT: {
    status: 409,
    retryable: false,
    clause: 'records-identical-put',
    provokable: true,
    summary: 'immutability, monotonicity or uniqueness violated',
  },
  STALE_CURSOR: {
    status: 409,
    retryable: true,
    clause: 'page-stale-cursor',
    provokable: true,
    summary: 'catalog revision changed; restart the walk',
  },
  FENCE_LOST: {
    status: 409,
    retryable: false,
    clause: 'settle-fence',
    provokable: true,
    summary: 'presented assignment differs from the stored one',
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    retryable: false,
    clause: 'wire-body-limit',
    provokable: true,
    summary: 'request body above max_body_bytes',
  },
  URI_TOO_LONG: {
    status: 414,
    retryable: false,
    clause: 'wire-head-limits',
    provokable: true,
    summary: 'request target above the URL limit',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    retryable: false,
    clause: 'wire-json',
    provokable: true,
    summary: 'request body is not application/json',
  },
  HEADERS_TOO_LARGE: {
    status: 431,
    retryable: false,
    clause: 'wire-head-limits',
    provokable: true,
    summary: 'header fields or request head above their limit',
  },
  ADMISSION_REJECTED: {
    status: 422,
    retryable: false,
    clause: 'records-version-evidence',
    provokable: true,
    summary: 'evidence, ownership or policy refuses admission',
  },
  BINDING_UNAVAILABLE: {
    status: 422,
    retryable: false,
    clause: 'route-binding-unavailable',
    provokable: true,
    summary: 'no enabled valid binding for tenant and capability',
  },
  CAPACITY_EXCEEDED: {
    status: 429,
    retryable: true,
    clause: 'admission-all-or-nothing',
    provokable: true,
    summary: 'an admission scope is at its limit',
  },
  REPLICA_UNAVAILABLE: {
    status: 503,
    retryable: true,
    clause: 'route-replica-unavailable',
    provokable: true,
    summary: 'no replica can take the attempt',
  },
  STORAGE_UNAVAILABLE: {
    status: 503,
    retryable: true,
    clause: 'failure-storage',
    provokable: false,
    summary: 'storage failed; the request may or may not have taken effect',
  },
  INTERNAL: {
    status: 500,
    retryable: false,
    clause: 'error-no-server-error-on-input',
    provokable: false,
    summary: 'a defect; never a correct answer',
  },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CATALOGUE, value);
}

/** The wire shape of every error response (spec.md [error-body]). */
export interface ErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    retry_after_ms?: number;
    details?: Record<string, unknown>;
  };
}

/** The scope kinds of CAPACITY_EXCEEDED, in the order they are checked. */
export const SCOPE_KINDS = ['global', 'tenant', 'connector_type', 'instance', 'binding', 'tenant_retry'] as const;
export type ScopeKind = (typeof SCOPE_KINDS)[number];

/** The reference's retry guidance for CAPACITY_EXCEEDED. */
export const CAPACITY_RETRY_AFTER_MS = 100;
