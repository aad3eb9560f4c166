// A loopback HTTP/1.1 target written on raw sockets, so a test decides every
// byte a misbehaving server sends and when it closes: trickles, silence,
// garbage, huge bodies, a close mid-body, a reset after the head, an early
// answer to a body it never reads, a kept-alive connection closed as the
// next request arrives. It can stand alone or in front of a real registry,
// forwarding each request and misbehaving with the answer.
import { request as forward } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';

export interface RawRequest {
  method: string;
  /** The path with its query string. */
  path: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** Empty when the handler answers before the body (`onHead`). */
  body: Buffer;
  /** Requests this connection carried before this one. */
  earlier: number;
  /** Milliseconds since the connection's previous answer was written; null on its first request. */
  idleMs: number | null;
}

/** What the target does with one request: write to the socket, end or destroy it; resolves when done. */
export type Handler = (req: RawRequest, socket: Socket) => void | Promise<void>;

export interface LoopbackTarget {
  url: string;
  /** Requests received, in order. */
  readonly seen: RawRequest[];
  /** Connections open now. */
  connections(): number;
  close(): Promise<void>;
}

export interface LoopbackOptions {
  /**
   * Called once a head is in, before its body is read: an early answer. True
   * when it answered, and the target then reads no further on the connection.
   */
  onHead?: (req: RawRequest, socket: Socket) => boolean;
}

const HEAD_END = Buffer.from('\r\n\r\n');

/** Starts a target calling `handler` for each complete request, one at a time per connection. */
export async function loopbackTarget(handler: Handler, options: LoopbackOptions = {}): Promise<LoopbackTarget> {
  const sockets = new Set<Socket>();
  const seen: RawRequest[] = [];
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffered = Buffer.alloc(0);
    /** Chunks not yet joined to `buffered`, and how many bytes `buffered` must hold before the next look. */
    let arriving: Buffer[] = [];
    let arrivingBytes = 0;
    let needed = 0;
    /** When the first byte of the request being read arrived. */
    let arrivedAt = performance.now();
    let earlier = 0;
    let answeredAt: number | null = null;
    let busy = false;
    /** The current request's head was offered to `onHead`. */
    let offered = false;
    const next = async (): Promise<void> => {
      if (busy) return;
      const headEnd = buffered.indexOf(HEAD_END);
      if (headEnd < 0) return;
      const [line = '', ...fields] = buffered.subarray(0, headEnd).toString('latin1').split('\r\n');
      const [method = '', path = ''] = line.split(' ');
      const headers: Record<string, string> = {};
      for (const field of fields) {
        const colon = field.indexOf(':');
        headers[field.slice(0, colon).trim().toLowerCase()] = field.slice(colon + 1).trim();
      }
      const head = { method, path, headers, earlier, idleMs: answeredAt === null ? null : arrivedAt - answeredAt };
      const early = { ...head, body: Buffer.alloc(0) };
      const firstLook = !offered;
      offered = true;
      if (firstLook && options.onHead?.(early, socket)) {
        // What arrives next is the handler's to take or leave.
        busy = true;
        socket.off('data', onData);
        seen.push(early);
        return;
      }
      const length = Number(headers['content-length'] ?? 0);
      needed = headEnd + 4 + length;
      if (buffered.length < needed) return;
      needed = 0;
      const req = { ...head, body: Buffer.from(buffered.subarray(headEnd + 4, headEnd + 4 + length)) };
      buffered = buffered.subarray(headEnd + 4 + length);
      offered = false;
      seen.push(req);
      busy = true;
      await handler(req, socket);
      busy = false;
      earlier++;
      answeredAt = performance.now();
      await next();
    };
    const onData = (chunk: Buffer) => {
      if (buffered.length + arrivingBytes === 0) arrivedAt = performance.now();
      arriving.push(chunk);
      arrivingBytes += chunk.length;
      // A body is joined once whole, not chunk by chunk.
      if (buffered.length + arrivingBytes < needed) return;
      buffered = Buffer.concat([buffered, ...arriving]);
      arriving = [];
      arrivingBytes = 0;
      void next();
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    seen,
    connections: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface Answer {
  status: number;
  /** Lower-case names; content-length is set from the body. */
  headers: Record<string, string>;
  body: Buffer;
}

/** The head of an answer, with its Content-Length (the body's unless `declaredLength` says otherwise). */
export function headOf(answer: Omit<Answer, 'body'> & { body?: Buffer }, declaredLength?: number): string {
  const fields = Object.entries(answer.headers).filter(([name]) => !['content-length', 'transfer-encoding', 'connection'].includes(name));
  const length = declaredLength ?? answer.body?.length ?? 0;
  return `HTTP/1.1 ${answer.status} Status\r\n${fields.map(([n, v]) => `${n}: ${v}\r\n`).join('')}content-length: ${length}\r\n\r\n`;
}

/** Writes a whole answer on the socket. */
export function writeAnswer(socket: Socket, answer: Answer): void {
  socket.write(headOf(answer));
  socket.write(answer.body);
}

export const jsonAnswer = (status: number, value: unknown): Answer => ({
  status,
  headers: { 'content-type': 'application/json', date: new Date().toUTCString() },
  body: Buffer.from(JSON.stringify(value)),
});

/** What `upstream` answers to the request, read whole. */
export function forwarded(upstream: string, req: RawRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const { connection: _c, 'keep-alive': _k, ...headers } = req.headers;
    const out = forward(new URL(req.path, upstream), { method: req.method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const answerHeaders: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') answerHeaders[name] = value;
        resolve({ status: res.statusCode!, headers: answerHeaders, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    out.on('error', reject);
    out.end(req.body);
  });
}

/** Writes `bytes` bytes of `fill` with the socket's backpressure; resolves with how many it wrote before the reader went away. */
export async function writeMany(socket: Socket, bytes: number, fill = 0x20): Promise<number> {
  const chunk = Buffer.alloc(64 * 1024, fill);
  let written = 0;
  while (written < bytes && !socket.destroyed) {
    const piece = chunk.subarray(0, Math.min(chunk.length, bytes - written));
    written += piece.length;
    if (!socket.write(piece))
      await new Promise<void>((resolve) => {
        socket.once('drain', resolve);
        socket.once('close', resolve);
      });
  }
  return written;
}
