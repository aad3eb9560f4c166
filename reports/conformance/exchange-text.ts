// An exchange as plain HTTP-like text, shared by the Markdown, HTML and JUnit
// reports. Headers are already redacted by the harness; the caller line says
// which roles and tenant the (hidden) token carried.
import type { Exchange } from '../../conformance/harness/exchange.ts';

const SHOWN_REQUEST_HEADERS = ['authorization', 'content-type', 'x-request-id'];
const SHOWN_RESPONSE_HEADERS = ['content-type', 'retry-after', 'allow', 'x-request-id'];

function prettyBody(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function exchangeText(e: Exchange): string {
  const lines: string[] = [`${e.request.method} ${e.request.url}`];
  for (const h of SHOWN_REQUEST_HEADERS) if (e.request.headers[h] !== undefined) lines.push(`${h}: ${e.request.headers[h]}`);
  if (e.request.caller) {
    const c = e.request.caller;
    lines.push(`# caller: roles [${c.roles.join(' ')}], tenant ${c.tenant ?? '(none)'}${c.note ? `, ${c.note}` : ''}`);
  } else {
    lines.push('# caller: no Authorization header');
  }
  if (e.request.body) {
    lines.push('', e.request.body.truncated ? e.request.body.text : prettyBody(e.request.body.text));
    if (e.request.body.truncated)
      lines.push(`# … request body of ${e.request.body.bytes} bytes, first ${Buffer.byteLength(e.request.body.text)} shown`);
  }
  lines.push('');
  if (!e.response) {
    lines.push(`# no response after ${e.duration_ms} ms: ${e.transport_error ?? 'unknown'}`);
    return lines.join('\n');
  }
  lines.push(`HTTP ${e.response.status}  (${e.duration_ms} ms)`);
  for (const h of SHOWN_RESPONSE_HEADERS) if (e.response.headers[h] !== undefined) lines.push(`${h}: ${e.response.headers[h]}`);
  if (e.response.body) {
    lines.push('', e.response.body.truncated ? e.response.body.text : prettyBody(e.response.body.text));
    if (e.response.body.truncated)
      lines.push(`# … response body of ${e.response.body.bytes} bytes, first ${Buffer.byteLength(e.response.body.text)} shown`);
  }
  return lines.join('\n');
}
