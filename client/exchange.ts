// The record of one HTTP exchange, as sent and as received, cut to a readable
// size: what a report shows for a failure. Bearer tokens never leave the
// process; the exchange names the roles and tenant the token carried instead,
// which is what a reader needs.

/** Who a request spoke as: the claims of the token it carried. */
export interface CallerSummary {
  roles: string[];
  tenant: string | null;
  /** Set when the token was deliberately malformed, expired, forged, given as is, ... */
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
  /** Set when no response arrived (timeout, connection refused), or one too large to read. */
  transport_error?: string;
  /** Set when the request was sent a second time, on a new connection, and why. */
  resent?: string;
  started_at: string;
  duration_ms: number;
}

const EXCERPT_BYTES = 4096;
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
