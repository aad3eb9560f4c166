// What one connection may cost the server ([wire-head-limits],
// [wire-connection-timeouts]): how long a client may take to send its
// request head and its whole request, how long an idle keep-alive
// connection is kept, how many connections are held at once, and how large
// a request target and header fields may be. A head too large or too long
// gets the error envelope, never an empty 431 or a reset.
import { readFileSync } from 'node:fs';
import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import { RegistryError } from '../../contract/registry-error.ts';
import { errorReply, type ErrorLogger } from './error-response.ts';

export interface ConnectionLimits {
  /** The request head (line and header fields) must arrive within this; slowloris ends here. */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Connections held at once; one more is closed as soon as it is accepted. Each costs a file descriptor. */
  maxConnections: number;
  /** Longest request target (path and query), in bytes: above it, URI_TOO_LONG. */
  maxUrlBytes: number;
  /** Largest sum of header names and values, in bytes: above it, HEADERS_TOO_LARGE. */
  maxHeaderBytes: number;
  /** Largest head the parser reads at all; above it, HEADERS_TOO_LARGE whatever made it large. */
  maxHeadBytes: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 10_000,
  maxUrlBytes: 8 * 1024,
  maxHeaderBytes: 16 * 1024,
  maxHeadBytes: 64 * 1024,
};

/** How often the server looks for connections past their timeouts; a timeout is honoured within this. */
export const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

export function resolveConnectionLimits(given: Partial<ConnectionLimits> = {}): ConnectionLimits {
  const limits = { ...DEFAULT_CONNECTION_LIMITS, ...given };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isInteger(value) || value <= 0) throw new Error(`connection limit ${name} must be a positive integer, not ${value}`);
  }
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) throw new Error('headersTimeoutMs cannot exceed requestTimeoutMs');
  if (limits.maxUrlBytes + limits.maxHeaderBytes > limits.maxHeadBytes)
    throw new Error('maxHeadBytes must hold maxUrlBytes and maxHeaderBytes');
  return limits;
}

/** The options node:http takes at creation. */
export function serverOptions(limits: ConnectionLimits): ServerOptions {
  return {
    maxHeaderSize: limits.maxHeadBytes,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
  };
}

/**
 * URI_TOO_LONG or HEADERS_TOO_LARGE for a head the parser read but the limits
 * refuse; null when it fits. node:http decodes the head as Latin-1, one
 * character per byte received, so string lengths are the byte counts.
 */
export function headRefusal(limits: ConnectionLimits, url: string, rawHeaders: readonly string[]): RegistryError | null {
  const urlBytes = url.length;
  if (urlBytes > limits.maxUrlBytes)
    return new RegistryError('URI_TOO_LONG', `the request target is ${urlBytes} bytes, above ${limits.maxUrlBytes}`);
  let headerBytes = 0;
  for (let i = 0; i < rawHeaders.length; i++) headerBytes += rawHeaders[i]!.length;
  if (headerBytes > limits.maxHeaderBytes)
    return new RegistryError('HEADERS_TOO_LARGE', `the header fields are ${headerBytes} bytes, above ${limits.maxHeaderBytes}`);
  return null;
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 431: 'Request Header Fields Too Large' };

/** Answers on the bare socket, as node:http does, but with the error envelope; then closes. */
function answer(socket: Socket, err: RegistryError, requestId: string, log: ErrorLogger): void {
  const reply = errorReply(err, requestId, log);
  const body = JSON.stringify(reply.body);
  socket.end(
    `HTTP/1.1 ${reply.status} ${REASONS[reply.status] ?? 'Error'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `x-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * Sets the connection cap and answers what the parser refuses before any
 * request exists: a head above maxHeadBytes, malformed HTTP. A client that
 * ran out of time or went away gets no answer; its socket is destroyed.
 */
export function guardConnections(server: Server, limits: ConnectionLimits, nextRequestId: () => string, log: ErrorLogger): void {
  server.maxConnections = limits.maxConnections;
  closeIdleAfterReading(server);
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // Nothing of a response may have gone out yet, and the socket must still take one.
    if (!socket.writable || (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    if (err.code === 'HPE_HEADER_OVERFLOW') {
      answer(
        socket,
        new RegistryError('HEADERS_TOO_LARGE', `the request head is above ${limits.maxHeadBytes} bytes`),
        nextRequestId(),
        log,
      );
    } else if (typeof err.code === 'string' && err.code.startsWith('HPE_')) {
      answer(socket, new RegistryError('INVALID_REQUEST', 'the request is not well-formed HTTP/1.1'), nextRequestId(), log);
    } else {
      socket.destroy();
    }
  });
}

/**
 * Closes a kept-alive connection at its idle timeout only once what arrived
 * on it has been read. A process that stood still past the timeout (a long
 * synchronous task, a machine too busy to run it) runs its due timers before
 * it reads its sockets: node:http would close a connection with a request
 * unread in it, and the kernel answers that request with a reset, which the
 * client cannot tell from a request the server lost. With a listener of its
 * own, node:http leaves the close to it: it waits one turn, in which pending
 * reads run, and closes only a connection that received nothing meanwhile
 * and carries no request. A connection that did receive is the next
 * request's, under the head and request timeouts, and is idle again after it.
 */
function closeIdleAfterReading(server: Server): void {
  const inFlight = new WeakMap<Socket, number>();
  server.on('request', (req, res) => {
    const socket = req.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    res.once('close', () => inFlight.set(socket, (inFlight.get(socket) ?? 1) - 1));
  });
  server.on('timeout', (socket: Socket) => {
    const read = socket.bytesRead;
    setImmediate(() => {
      if (socket.bytesRead === read && (inFlight.get(socket) ?? 0) === 0) socket.destroy();
    });
  });
}

/** The soft open-file limit (ulimit -n), on platforms that say (Linux's /proc); each connection holds one. */
export function openFileLimit(): number | null {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    return soft === undefined || soft === 'unlimited' ? null : Number(soft);
  } catch {
    return null;
  }
}
