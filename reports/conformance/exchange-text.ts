// An exchange as plain HTTP-like text, shared by the Markdown, HTML and JUnit
// reports: the request line with the headers that matter and the caller the
// (hidden) token spoke for, the request body, the status line with its
// headers, the response body. Headers are already redacted by the harness.
// The HTML page shows the same parts, folding a long body (exchange-html.ts).
import type { BodyExcerpt, Exchange } from '../../client/exchange.ts';

const SHOWN_REQUEST_HEADERS = ['authorization', 'content-type', 'x-request-id'];
const SHOWN_RESPONSE_HEADERS = ['content-type', 'retry-after', 'allow', 'x-request-id'];

function prettyBody(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** A body as a reader wants it: JSON indented, the rest as sent, with a note when only its start was recorded. */
export function bodyText(body: BodyExcerpt): string {
  const text = body.truncated ? body.text : prettyBody(body.text);
  return body.truncated ? `${text}\n# … body of ${body.bytes} bytes, first ${Buffer.byteLength(body.text)} shown` : text;
}

export function requestHead(e: Exchange): string {
  const lines: string[] = [`${e.request.method} ${e.request.url}`];
  for (const h of SHOWN_REQUEST_HEADERS) if (e.request.headers[h] !== undefined) lines.push(`${h}: ${e.request.headers[h]}`);
  const c = e.request.caller;
  lines.push(
    c
      ? `# caller: roles [${c.roles.join(' ')}], tenant ${c.tenant ?? '(none)'}${c.note ? `, ${c.note}` : ''}`
      : '# caller: no Authorization header',
  );
  return lines.join('\n');
}

export function responseHead(e: Exchange): string {
  if (!e.response) return `# no response after ${e.duration_ms} ms: ${e.transport_error ?? 'unknown'}`;
  const lines = [`HTTP ${e.response.status}  (${e.duration_ms} ms)`];
  for (const h of SHOWN_RESPONSE_HEADERS) if (e.response.headers[h] !== undefined) lines.push(`${h}: ${e.response.headers[h]}`);
  return lines.join('\n');
}

export function exchangeText(e: Exchange): string {
  const parts = [requestHead(e)];
  if (e.request.body) parts.push('', bodyText(e.request.body));
  parts.push('', responseHead(e));
  if (e.response?.body) parts.push('', bodyText(e.response.body));
  return parts.join('\n');
}
