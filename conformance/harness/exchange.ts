// What a failure shows: the exchange record of the transport, and the one
// line progress output gives it.
import type { Exchange } from '../../client/exchange.ts';

export type { CallerSummary, Exchange } from '../../client/exchange.ts';

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
