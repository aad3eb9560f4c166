// Reading a JSON request body: media type first ([wire-json]), then the size
// limit ([wire-body-limit]) — from Content-Length before a byte is read, and
// while reading for bodies without one — then UTF-8 and JSON well-formedness
// ([wire-malformed-json]). Nothing here looks at the body's meaning.
import type { IncomingMessage } from 'node:http';
import { invalid, RegistryError } from '../domain/registry-error.ts';

const JSON_MEDIA_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Thrown for PAYLOAD_TOO_LARGE; the server closes the connection after answering. */
export const payloadTooLarge = (max: number) => new RegistryError('PAYLOAD_TOO_LARGE', `the request body exceeds ${max} bytes`);

function declaresNoBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return length === '0' || (length === undefined && req.headers['transfer-encoding'] === undefined);
}

/** Refuses a body that is not `application/json` (UTF-8) before reading it. */
export function checkMediaType(req: IncomingMessage): void {
  const type = req.headers['content-type'];
  if (type === undefined) {
    if (declaresNoBody(req)) throw invalid('a JSON request body is required');
    throw new RegistryError('UNSUPPORTED_MEDIA_TYPE', 'the request body must be application/json');
  }
  if (!JSON_MEDIA_TYPE.test(type)) throw new RegistryError('UNSUPPORTED_MEDIA_TYPE', `media type ${type.slice(0, 100)} is not application/json`);
}

/** Reads at most `maxBytes`; stops reading as soon as the body is known to be larger. */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) return Promise.reject(payloadTooLarge(maxBytes));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        req.pause();
        reject(payloadTooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    // The client went away mid-body: nobody is left to answer, and it is no server fault.
    const onError = () => {
      cleanup();
      reject(invalid('the request body could not be read'));
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/**
 * The deepest nesting a request body may have. No record of the contract comes
 * near it, and the digest and copy steps recurse once per level, so a body of
 * a few hundred kilobytes of brackets would otherwise exhaust the stack.
 */
export const MAX_JSON_DEPTH = 128;

/** Whether arrays and objects nest deeper than `max`, counted outside strings. */
export function nestsDeeperThan(bytes: Buffer, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (inString) {
      if (c === 0x5c /* backslash: skip the escaped byte */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}

/** Parses a body as UTF-8 JSON; anything else is INVALID_REQUEST. */
export function parseJson(bytes: Buffer): unknown {
  if (bytes.length === 0) throw invalid('a JSON request body is required');
  if (nestsDeeperThan(bytes, MAX_JSON_DEPTH)) throw invalid(`the request body nests deeper than ${MAX_JSON_DEPTH} levels`);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw invalid('the request body is not valid UTF-8');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw invalid('the request body is not well-formed JSON');
  }
}
