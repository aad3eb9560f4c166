// Reading a JSON request body: media type first ([wire-json]), then the size
// limit ([wire-body-limit]) — from Content-Length before a byte is read, and
// while reading for bodies without one — and the nesting bound
// ([wire-nesting]) while reading, then UTF-8 and JSON well-formedness
// ([wire-malformed-json]). Nothing here looks at the body's meaning.
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { invalid, RegistryError } from '../../contract/registry-error.ts';
import { MAX_NESTING } from '../domain/validation.ts';
import { NestingScan } from './nesting-scan.ts';

const JSON_MEDIA_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/** Thrown for PAYLOAD_TOO_LARGE; the rest of the body is read and discarded after the answer (unread-body.ts). */
export const payloadTooLarge = (max: number) => new RegistryError('PAYLOAD_TOO_LARGE', `the request body exceeds ${max} bytes`);

function declaresNoBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return length === '0' || (length === undefined && req.headers['transfer-encoding'] === undefined);
}

/**
 * Refuses a body that is not `application/json` (UTF-8) before reading it. No
 * media type and no body is either error ([wire-json]); `emptyAnswer` says which.
 */
export function checkMediaType(req: IncomingMessage, emptyAnswer: 'INVALID_REQUEST' | 'UNSUPPORTED_MEDIA_TYPE' = 'INVALID_REQUEST'): void {
  const type = req.headers['content-type'];
  if (type === undefined) {
    if (declaresNoBody(req) && emptyAnswer === 'INVALID_REQUEST') throw invalid('a JSON request body is required');
    throw new RegistryError('UNSUPPORTED_MEDIA_TYPE', 'the request body must be application/json');
  }
  if (!JSON_MEDIA_TYPE.test(type))
    throw new RegistryError('UNSUPPORTED_MEDIA_TYPE', `media type ${type.slice(0, 100)} is not application/json`);
}

/**
 * Collects one body, scanning its nesting as each chunk arrives. Its
 * listeners are prototype methods bound once, rather than closures made per
 * request, which keeps the hot path light. A refused body is left paused:
 * the server answers, then reads and discards the rest (unread-body.ts).
 */
class BodyCollector {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private readonly nesting: NestingScan;
  private readonly onData = this.data.bind(this);
  private readonly onEnd = this.end.bind(this);
  private readonly onError = this.error.bind(this);

  constructor(
    private readonly req: IncomingMessage,
    private readonly maxBytes: number,
    maxDepth: number,
    private readonly resolve: (body: Buffer) => void,
    private readonly reject: (err: unknown) => void,
  ) {
    this.nesting = new NestingScan(maxDepth);
    req.on('data', this.onData);
    req.on('end', this.onEnd);
    req.on('error', this.onError);
  }

  private data(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) this.refuse(payloadTooLarge(this.maxBytes));
    else if (!this.nesting.accepts(chunk)) this.refuse(invalid(`the request body nests deeper than ${this.nesting.maxDepth} levels`));
    else this.chunks.push(chunk);
  }

  private refuse(err: RegistryError): void {
    this.detach();
    this.req.pause();
    this.chunks.length = 0;
    this.reject(err);
  }

  private end(): void {
    this.detach();
    this.resolve(this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size));
  }

  // The client went away mid-body: nobody is left to answer, and it is no server fault.
  private error(): void {
    this.detach();
    this.reject(invalid('the request body could not be read'));
  }

  private detach(): void {
    this.req.off('data', this.onData);
    this.req.off('end', this.onEnd);
    this.req.off('error', this.onError);
  }
}

/** PAYLOAD_TOO_LARGE when Content-Length already says the body is over the limit. */
export function checkDeclaredLength(req: IncomingMessage, maxBytes: number): void {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) throw payloadTooLarge(maxBytes);
}

/**
 * Reads a body of at most `maxBytes` that nests at most `maxDepth` deep
 * ([wire-body-limit], [wire-nesting]); refuses it at the first byte that
 * breaks either, without reading further.
 */
export function readBody(req: IncomingMessage, maxBytes: number, maxDepth: number): Promise<Buffer> {
  try {
    checkDeclaredLength(req, maxBytes);
  } catch (err) {
    return Promise.reject(err);
  }
  return new Promise((resolve, reject) => new BodyCollector(req, maxBytes, maxDepth, resolve, reject));
}

/** The contract's nesting bound ([wire-nesting]); a closed schema may bound a body closer (body-nesting.ts). */
export const MAX_JSON_DEPTH = MAX_NESTING;

/** Parses a body, already checked for size and nesting, as UTF-8 JSON; anything else is INVALID_REQUEST. */
export function parseJson(bytes: Buffer): unknown {
  if (bytes.length === 0) throw invalid('a JSON request body is required');
  if (!isUtf8(bytes)) throw invalid('the request body is not valid UTF-8');
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw invalid('the request body is not well-formed JSON');
  }
}
