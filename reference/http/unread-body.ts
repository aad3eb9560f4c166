// What is left of a request body when the answer goes out before all of it
// has arrived: a body refused for its size or its nesting, or any request
// refused before its body was read. Closing at once would leave unread bytes
// in the socket, and the kernel answers them with a reset that reaches many
// clients (undici's fetch among them) before the answer does: they see EPIPE
// instead of the refusal. So the rest is read and thrown away, and once the
// body has ended the connection serves the next request as any other.
// Reading is bounded ([wire-connection-timeouts]): at most DRAIN_FACTOR times
// max_body_bytes more, and only while bytes keep arriving (a gap of
// DRAIN_IDLE_MS ends it). Past either bound the connection is closed, as it is
// at once for a body that declares more than the bound.
import type { IncomingMessage } from 'node:http';

/** How many times max_body_bytes a refused request may still send before its connection is cut. */
export const DRAIN_FACTOR = 4;
/** How long a refused request may pause while the rest of its body is discarded. */
export const DRAIN_IDLE_MS = 1_000;

class Discard {
  private left: number;
  private readonly idle: NodeJS.Timeout;
  private readonly onData = this.data.bind(this);
  private readonly onDone = this.done.bind(this);

  constructor(
    private readonly req: IncomingMessage,
    bound: number,
  ) {
    this.left = bound;
    this.idle = setTimeout(() => this.cut(), DRAIN_IDLE_MS);
    req.on('data', this.onData);
    req.on('end', this.onDone);
    req.on('error', this.onDone);
    req.on('close', this.onDone);
    // The body reader pauses a body it refuses, and a paused stream stays paused when a listener is added.
    req.resume();
  }

  private data(chunk: Buffer): void {
    this.left -= chunk.length;
    if (this.left < 0) this.cut();
    else this.idle.refresh();
  }

  private cut(): void {
    this.done();
    this.req.socket.destroy();
  }

  private done(): void {
    clearTimeout(this.idle);
    this.req.off('data', this.onData);
    this.req.off('end', this.onDone);
    this.req.off('error', this.onDone);
    this.req.off('close', this.onDone);
  }
}

/**
 * Reads and discards the rest of a request's body after its answer; true
 * when the connection may stay open. False when the body declares more than
 * the bound: nothing is read, and the answer must close the connection.
 */
export function discardRest(req: IncomingMessage, maxBodyBytes: number): boolean {
  if (req.complete) return true;
  const bound = DRAIN_FACTOR * maxBodyBytes;
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > bound) return false;
  new Discard(req, bound);
  return true;
}
