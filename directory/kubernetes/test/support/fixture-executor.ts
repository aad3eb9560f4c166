// A deterministic request executor for tests: it records every request and
// answers each from a script (or a responder function). Watch bodies are
// streams the test writes lines into, so every event arrives exactly when the
// test says.
import { PassThrough } from 'node:stream';
import {
  ALL_GUARANTEES,
  type ExecutorGuarantees,
  type KubernetesRequest,
  type KubernetesRequestExecutor,
  type KubernetesResponse,
  type ResponseBody,
} from '../../executor.ts';

export type FixtureReply = { status: number; json?: unknown; text?: string; body?: ResponseBody | null } | { transportError: true };

export type Responder = (request: KubernetesRequest, index: number) => FixtureReply | Promise<FixtureReply>;

/** A watch body the test writes newline-delimited JSON into. */
export class WatchStream implements ResponseBody {
  readonly stream = new PassThrough();
  destroyed = false;

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    return this.stream[Symbol.asyncIterator]();
  }

  destroy(error?: Error): void {
    this.destroyed = true;
    this.stream.destroy(error);
  }

  write(text: string): void {
    if (!this.destroyed) this.stream.write(text);
  }

  event(type: string, object: unknown): void {
    this.write(`${JSON.stringify({ type, object })}\n`);
  }

  end(): void {
    if (!this.destroyed) this.stream.end();
  }
}

/** A one-shot body holding `text`. */
export function textBody(text: string): ResponseBody & { destroyed: boolean } {
  const stream = new PassThrough();
  stream.end(text);
  const body = {
    destroyed: false,
    [Symbol.asyncIterator]: () => stream[Symbol.asyncIterator](),
    destroy: (error?: Error) => {
      body.destroyed = true;
      stream.destroy(error);
    },
  };
  return body;
}

export class FixtureExecutor implements KubernetesRequestExecutor {
  readonly requests: KubernetesRequest[] = [];
  readonly bodies: Array<ResponseBody & { destroyed: boolean }> = [];
  readonly #responder: Responder;
  readonly #guarantees: ExecutorGuarantees;

  constructor(responder: Responder, guarantees: ExecutorGuarantees = { ...ALL_GUARANTEES }) {
    this.#responder = responder;
    this.#guarantees = guarantees;
  }

  /** Answers the n-th request with the n-th reply; one request too many fails the test. */
  static script(replies: FixtureReply[], guarantees?: ExecutorGuarantees): FixtureExecutor {
    return new FixtureExecutor((request, index) => {
      const reply = replies[index];
      if (!reply) throw new Error(`unexpected request #${index + 1}: ${request.url()}`);
      return reply;
    }, guarantees);
  }

  guarantees(): ExecutorGuarantees {
    return this.#guarantees;
  }

  async execute(request: KubernetesRequest, signal: AbortSignal): Promise<KubernetesResponse> {
    const index = this.requests.push(request) - 1;
    if (signal.aborted) throw new Error('aborted before sending');
    const reply = await this.#responder(request, index);
    if ('transportError' in reply) throw new Error('connect ECONNREFUSED 10.0.0.1:6443 token=secret');
    let body: (ResponseBody & { destroyed: boolean }) | null;
    if (reply.body !== undefined) body = reply.body as (ResponseBody & { destroyed: boolean }) | null;
    else body = textBody(reply.text ?? (reply.json === undefined ? '' : JSON.stringify(reply.json)));
    if (body) this.bodies.push(body);
    return { statusCode: reply.status, body };
  }

  /** The path and decoded query of the n-th request. */
  requestAt(index: number): { path: string; query: Record<string, string>; accept: string | undefined } {
    const request = this.requests[index];
    if (!request) throw new Error(`no request #${index + 1}`);
    const url = new URL(request.url());
    return { path: url.pathname, query: Object.fromEntries(url.searchParams), accept: request.header('Accept') };
  }
}
