// What a failure shows: the exact request and response, cut to a readable
// size. Bearer tokens never leave the process; the exchange names the roles
// and tenant the token carried instead, which is what a reader needs.

/** Who a request spoke as: the claims of the token the harness minted. */
export interface CallerSummary {
  roles: string[];
  tenant: string | null;
  /** Set when the token was deliberately malformed, expired, forged, ... */
  note?: string;
}

export interface BodyExcerpt {
  /** The first bytes of the body as text. */
  text: string;
  bytes: number;
  truncated: boolean;
}

export interface Exchange {
  request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    caller: CallerSummary | null;
    body: BodyExcerpt | null;
  };
  response: {
    status: number;
    headers: Record<string, string>;
    body: BodyExcerpt | null;
  } | null;
  /** Set when no response arrived (timeout, connection refused). */
  transport_error?: string;
  started_at: string;
  duration_ms: number;
}

export const EXCERPT_BYTES = 4096;
const REDACTED_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

export function excerpt(body: string | Buffer | undefined | null, limit = EXCERPT_BYTES): BodyExcerpt | null {
  if (body === undefined || body === null) return null;
  const buffer = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const truncated = buffer.length > limit;
  return { text: buffer.subarray(0, limit).toString('utf8'), bytes: buffer.length, truncated };
}

/** Header values as strings, with credentials replaced. */
export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    if (REDACTED_HEADERS.has(lower)) {
      const text = Array.isArray(value) ? value.join(', ') : value;
      const scheme = /^\s*(\S+)\s+\S/.exec(text)?.[1];
      out[lower] = scheme ? `${scheme} [redacted]` : '[redacted]';
    } else {
      out[lower] = Array.isArray(value) ? value.join(', ') : value;
    }
  }
  return out;
}

/** One line for progress output: `PUT /v1/... → 409 CONFLICT`. */
export function summarizeExchange(e: Exchange): string {
  const path = e.request.url.replace(/^https?:\/\/[^/]+/, '');
  if (!e.response) return `${e.request.method} ${path} → no response (${e.transport_error ?? 'unknown'})`;
  let code = '';
  try {
    const body = JSON.parse(e.response.body?.text ?? '') as { error?: { code?: unknown } };
    if (typeof body.error?.code === 'string') code = ` ${body.error.code}`;
  } catch {
    // not JSON, or cut short: the status alone is the summary
  }
  return `${e.request.method} ${path} → ${e.response.status}${code}`;
}
