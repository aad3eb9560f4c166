// What the HTTP defects do to a request before the server sees it, and to
// its answer before the client does: read the body, hand the server a copy
// of the request with other parts, answer in the contract's error envelope,
// or rewrite what the server answered.
import { IncomingMessage, type OutgoingHttpHeaders, type RequestListener, type ServerResponse } from 'node:http';
import { ERROR_CATALOGUE, type ErrorCode } from '../../../contract/errors.ts';
import type { OperationEntry } from '../../../contract/openapi.ts';
import { RouteTable } from '../../http/route-table.ts';

/** The whole body of a request; the request is consumed. */
export async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The body as JSON, or undefined when it is not JSON. */
export function jsonOf(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

export interface RequestChanges {
  url?: string;
  /** Header values to set (lowercase names); undefined removes one. */
  headers?: Record<string, string | undefined>;
  body?: Buffer;
}

/** A copy of a request whose body was read (`body`), with some parts changed, for the server to answer. */
export function replayed(req: IncomingMessage, body: Buffer, changes: RequestChanges = {}): IncomingMessage {
  const copy = new IncomingMessage(req.socket);
  const sent = changes.body ?? body;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  for (const [name, value] of Object.entries(changes.headers ?? {})) {
    if (value === undefined) delete headers[name];
    else headers[name] = value;
  }
  if (headers['content-length'] !== undefined || headers['transfer-encoding'] === undefined)
    headers['content-length'] = String(sent.length);
  delete headers['transfer-encoding'];
  copy.method = req.method!;
  copy.url = changes.url ?? req.url!;
  copy.httpVersion = req.httpVersion;
  copy.headers = headers;
  copy.rawHeaders = Object.entries(headers).flat();
  // Complete, so that ending it does not count as an aborted request and take the connection down with it.
  copy.complete = true;
  copy.push(sent);
  copy.push(null);
  return copy;
}

/** Answers with the contract's error envelope for `code`, at the catalogue's status. */
export function sendError(res: ServerResponse, code: ErrorCode, message: string, extra: OutgoingHttpHeaders = {}): void {
  const payload = JSON.stringify({ error: { code, message } });
  res.writeHead(ERROR_CATALOGUE[code].status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
    ...extra,
  });
  res.end(payload);
}

export interface Answer {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

/**
 * Lets `next` answer the request into a buffer, then sends what `rewrite`
 * makes of that answer (the answer itself when it returns it unchanged).
 */
export function rewritingAnswers(
  next: RequestListener,
  rewrite: (answer: Answer, req: IncomingMessage) => Answer,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const original = { writeHead: res.writeHead, write: res.write, end: res.end };
    const answer: Answer = { status: 200, headers: {}, body: Buffer.alloc(0) };
    const chunks: Buffer[] = [];
    const keep = (chunk: unknown) => {
      if (chunk !== undefined && chunk !== null && typeof chunk !== 'function')
        chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
    };
    res.writeHead = ((status: number, headers?: OutgoingHttpHeaders) => {
      answer.status = status;
      answer.headers = { ...res.getHeaders(), ...(headers ?? {}) };
      return res;
    }) as typeof res.writeHead;
    res.write = ((chunk: unknown) => (keep(chunk), true)) as typeof res.write;
    res.end = ((chunk?: unknown) => {
      keep(chunk);
      res.writeHead = original.writeHead;
      res.write = original.write;
      res.end = original.end;
      const out = rewrite({ ...answer, body: Buffer.concat(chunks) }, req);
      const headers = { ...out.headers, 'content-length': out.body.length };
      for (const name of res.getHeaderNames()) res.removeHeader(name);
      res.writeHead(out.status, headers);
      return res.end(out.body);
    }) as typeof res.end;
    next(req, res);
  };
}

/** An answer with a JSON body in place of its own. */
export function withJson(answer: Answer, value: unknown, status = answer.status): Answer {
  return { status, headers: { ...answer.headers, 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(value)) };
}

const table = new RouteTable();

/** The operation a request names and its raw path parameters, or null for no operation. */
export function operationOf(req: IncomingMessage): { operationId: string; params: Record<string, string>; entry: OperationEntry } | null {
  const url = req.url ?? '';
  const q = url.indexOf('?');
  const match = table.match(req.method ?? '', q === -1 ? url : url.slice(0, q));
  return match.kind === 'found' ? { operationId: match.entry.operation.operationId, params: match.rawParams, entry: match.entry } : null;
}

/**
 * A listener that reads the body of the requests `wanted` picks and lets
 * `handle` answer them (usually by replaying a changed copy to `next`);
 * every other request goes to `next` untouched.
 */
export function withBody(
  next: RequestListener,
  wanted: (req: IncomingMessage) => boolean,
  handle: (req: IncomingMessage, body: Buffer, res: ServerResponse) => void | Promise<void>,
): RequestListener {
  return (req, res) => {
    if (!wanted(req)) return next(req, res);
    bodyOf(req).then(
      (body) => handle(req, body, res),
      () => res.destroy(),
    );
  };
}

/** Hands the server a changed JSON body for the requests `wanted` picks; a body that is not JSON goes as it came. */
export function rewritingJsonBodies(
  next: RequestListener,
  wanted: (req: IncomingMessage) => boolean,
  rewrite: (json: unknown, req: IncomingMessage) => unknown,
): RequestListener {
  return withBody(next, wanted, (req, body, res) => {
    const json = jsonOf(body);
    if (json === undefined) return next(replayed(req, body), res);
    next(replayed(req, body, { body: Buffer.from(JSON.stringify(rewrite(json, req))) }), res);
  });
}

/** Whether a request is for one of these operations. */
export const forOperations =
  (...ids: string[]) =>
  (req: IncomingMessage): boolean =>
    ids.includes(operationOf(req)?.operationId ?? '');

/** An error answer of the server: its code, or undefined for a success or a body that is no envelope. */
export function errorCodeOf(answer: Answer): string | undefined {
  const json = jsonOf(answer.body) as { error?: { code?: unknown } } | undefined;
  return typeof json?.error?.code === 'string' ? json.error.code : undefined;
}
