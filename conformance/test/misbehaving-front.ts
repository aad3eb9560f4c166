// A loopback front for a registry that misbehaves on the paths it is told
// to and forwards everything else: the targets a vendor's CI meets behind a
// slow proxy, a stuck process or a broken gateway.
import {
  forwarded,
  headOf,
  loopbackTarget,
  writeAnswer,
  writeMany,
  type Handler,
  type LoopbackTarget,
} from '../../client/test/loopback-target.ts';

export type Misbehaviour =
  /** The answer's body a byte every TRICKLE_MS. */
  | 'trickle'
  /** The request is read; no answer ever comes. */
  | 'silent'
  /** Bytes that are no HTTP answer. */
  | 'garbage'
  /** A 512 MB answer, written as fast as it is read. */
  | 'huge'
  /** The head and half the body, then the connection closes. */
  | 'close-mid-body'
  /** The head, then a reset. */
  | 'reset-after-head';

export const TRICKLE_MS = 200;
export const HUGE_BYTES = 512 * 1024 * 1024;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Forwards to `upstream`; on the paths `on` selects (every path unless given) it does what `misbehaviour` says. */
export function misbehavingFront(
  upstream: string,
  misbehaviour: Misbehaviour,
  on: (path: string) => boolean = () => true,
): Promise<LoopbackTarget> {
  const handler: Handler = async (req, socket) => {
    if (!on(req.path)) return writeAnswer(socket, await forwarded(upstream, req));
    if (misbehaviour === 'silent') return new Promise<void>((resolve) => socket.once('close', resolve));
    if (misbehaviour === 'garbage') return void socket.end('\u0000\u0013 this is no answer at all \r\n\r\n');
    if (misbehaviour === 'huge') {
      socket.write(headOf({ status: 200, headers: { 'content-type': 'application/json' } }, HUGE_BYTES));
      return void (await writeMany(socket, HUGE_BYTES));
    }
    const answer = await forwarded(upstream, req);
    socket.write(headOf(answer));
    if (misbehaviour === 'reset-after-head') return void socket.resetAndDestroy();
    if (misbehaviour === 'close-mid-body') {
      socket.write(answer.body.subarray(0, Math.floor(answer.body.length / 2)));
      return void socket.destroy();
    }
    for (const byte of answer.body) {
      if (socket.destroyed) return;
      socket.write(Buffer.of(byte));
      await pause(TRICKLE_MS);
    }
  };
  return loopbackTarget(handler);
}

/**
 * Forwards to `upstream`, and closes a kept-alive connection idle for at
 * least `idleMs` as its next request arrives, unanswered: a server whose
 * idle timer fires just as the client sends. Like many servers it announces
 * no idle timeout (no Keep-Alive header).
 */
export function racingFront(upstream: string, idleMs: number): Promise<LoopbackTarget> {
  return loopbackTarget(async (req, socket) => {
    if (req.idleMs !== null && req.idleMs >= idleMs) return void socket.destroy();
    const answer = await forwarded(upstream, req);
    const { 'keep-alive': _announced, ...headers } = answer.headers;
    writeAnswer(socket, { ...answer, headers });
  });
}

/**
 * Forwards to `upstream`, but answers a body declared larger than `maxBytes`
 * with 413 PAYLOAD_TOO_LARGE as soon as its head is in, and closes without
 * reading it, as nginx may.
 */
export function earlyRefusingFront(upstream: string, maxBytes: number): Promise<LoopbackTarget> {
  const refusal = { error: { code: 'PAYLOAD_TOO_LARGE', message: `the request body exceeds ${maxBytes} bytes` } };
  return loopbackTarget(async (req, socket) => writeAnswer(socket, await forwarded(upstream, req)), {
    onHead: (req, socket) => {
      if (Number(req.headers['content-length'] ?? 0) <= maxBytes) return false;
      const body = Buffer.from(JSON.stringify(refusal));
      socket.write(headOf({ status: 413, headers: { 'content-type': 'application/json', connection: 'close' }, body }));
      socket.end(body, () => socket.destroy());
      return true;
    },
  });
}
