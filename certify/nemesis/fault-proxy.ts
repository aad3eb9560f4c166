// A proxy on loopback between the harness and the registry under test. While
// healed it forwards every request untouched; while faulted it adds latency,
// resets connections before a request reaches the registry (which therefore
// did nothing), and drops responses after the registry answered (which
// therefore acted, though the client never heard). It keeps a ledger of
// every request it disturbed, so a history can mark exactly those
// operations: a reset one did not happen, a dropped one is indeterminate.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { seededRandom } from '../../client/seeded-random.ts';

export interface ProxyFaults {
  /** Added latency, uniformly drawn from [min, max] milliseconds. */
  latencyMs: readonly [number, number];
  /** Probability that a request's connection is reset before it is forwarded. */
  resetBeforeForward: number;
  /** Probability that a forwarded request's response is dropped. */
  loseResponse: number;
}

/** What a faulted proxy does by default: the mix Jepsen's partitions leave behind. */
export const DEFAULT_PROXY_FAULTS: ProxyFaults = { latencyMs: [20, 250], resetBeforeForward: 0.1, loseResponse: 0.2 };

export type ProxyFate = 'reset-before-forward' | 'lost-after-forward';

export interface DisturbedRequest {
  at: number;
  fate: ProxyFate;
  method: string;
  path: string;
  /** The request's `x-request-id`, when the client sent one. */
  requestId: string | null;
  /** The registry's status for a lost response: it acted on it. */
  status: number | null;
}

/** One second of traffic through the proxy, for a timeline. */
export interface TrafficSecond {
  second: number;
  requests: number;
  /** Answers of 5xx, connections reset, responses lost. */
  errors: number;
  latency_ms_mean: number;
  latency_ms_max: number;
}

export interface FaultProxy {
  readonly url: string;
  /** Per second since the proxy started, up to the last second with traffic. */
  traffic(): TrafficSecond[];
  /** Requests forwarded, reset and lost since the proxy started. */
  readonly counts: { forwarded: number; reset: number; lost: number };
  readonly ledger: readonly DisturbedRequest[];
  /** What the proxy did to the request with this `x-request-id`: null when it passed untouched. */
  fateOf(requestId: string): ProxyFate | null;
  fault(faults?: ProxyFaults): void;
  heal(): void;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
  'host',
  'content-length',
]);
const LEDGER_LIMIT = 100_000;

function forwardedHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startFaultProxy(options: { target: string; seed?: number }): Promise<FaultProxy> {
  const target = new URL(options.target);
  const dispatcher = new Agent({ connections: 256, headersTimeout: 120_000, bodyTimeout: 120_000 });
  const random = seededRandom(options.seed ?? 1);
  const started = performance.now();
  const counts = { forwarded: 0, reset: 0, lost: 0 };
  const ledger: DisturbedRequest[] = [];
  const fates = new Map<string, ProxyFate>();
  const seconds: Array<{ requests: number; errors: number; latency: number; max: number }> = [];
  const SECONDS_LIMIT = 24 * 3600;
  const observe = (arrived: number, failed: boolean) => {
    const second = Math.floor((arrived - started) / 1000);
    if (second >= SECONDS_LIMIT) return;
    while (seconds.length <= second) seconds.push({ requests: 0, errors: 0, latency: 0, max: 0 });
    const bucket = seconds[second]!;
    const took = performance.now() - arrived;
    bucket.requests++;
    bucket.latency += took;
    bucket.max = Math.max(bucket.max, took);
    if (failed) bucket.errors++;
  };
  let faults: ProxyFaults | null = null;

  // Per id, the attempts forwarded whose answer its client may not have had: broken ones, and answered
  // ones of an id some attempt of which was disturbed (the client may have gone). The registry saw them,
  // so nothing is known of the id while one is counted. Ids no attempt of which was disturbed leave no entry.
  const unsettled = new Map<string, number>();
  const settle = (id: string) => {
    const left = (unsettled.get(id) ?? 1) - 1;
    if (left > 0) unsettled.set(id, left);
    else unsettled.delete(id);
  };
  const idOf = (req: IncomingMessage) => (req.headers['x-request-id'] as string | undefined) ?? null;
  const note = (req: IncomingMessage, fate: ProxyFate, status: number | null) => {
    const requestId = idOf(req);
    if (ledger.length < LEDGER_LIMIT)
      ledger.push({ at: performance.now() - started, fate, method: req.method ?? 'GET', path: req.url ?? '/', requestId, status });
    // Kept apart from the bounded ledger: a client asks about its own request long after the ledger may be full.
    // One id can come twice: a client sends a PUT again on a new connection when the first attempt broke
    // before its answer. Once an attempt reached the registry, a reset one, earlier or later, does not make
    // the id unsent (fateOf).
    if (requestId === null) return;
    if (fate === 'reset-before-forward' && fates.get(requestId) === 'lost-after-forward') return;
    fates.set(requestId, fate);
  };

  async function handle(req: IncomingMessage, res: ServerResponse, arrived: number): Promise<void> {
    const body = await bodyOf(req);
    // The fate is drawn when the request arrives: a heal mid-flight does not save it.
    const now = faults;
    if (now) {
      await sleep(now.latencyMs[0] + random() * (now.latencyMs[1] - now.latencyMs[0]));
      if (random() < now.resetBeforeForward) {
        counts.reset++;
        note(req, 'reset-before-forward', null);
        observe(arrived, true);
        req.socket.resetAndDestroy();
        return;
      }
    }
    // A client that gave up during the added latency is gone: forwarding its request now would land it after the
    // client moved on, unseen by anything it judges. It never reaches the registry, as a reset one does not.
    if (req.socket.destroyed) {
      counts.reset++;
      note(req, 'reset-before-forward', null);
      observe(arrived, true);
      return;
    }
    const lose = now !== null && random() < now.loseResponse;
    const requestId = idOf(req);
    if (requestId !== null) unsettled.set(requestId, (unsettled.get(requestId) ?? 0) + 1);
    const upstream = await request(new URL(req.url ?? '/', target), {
      method: (req.method ?? 'GET') as 'GET',
      headers: forwardedHeaders(req),
      dispatcher,
      ...(body.length > 0 ? { body } : {}),
    });
    const answer = Buffer.from(await upstream.body.arrayBuffer());
    counts.forwarded++;
    if (lose) {
      counts.lost++;
      note(req, 'lost-after-forward', upstream.statusCode);
      if (requestId !== null) settle(requestId);
      observe(arrived, true);
      req.socket.resetAndDestroy();
      return;
    }
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(upstream.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    res.writeHead(upstream.statusCode, headers);
    res.end(answer);
    if (requestId !== null && !fates.has(requestId)) settle(requestId);
    observe(arrived, upstream.statusCode >= 500);
  }

  const server = createServer((req, res) => {
    const arrived = performance.now();
    handle(req, res, arrived).catch(() => {
      observe(arrived, true);
      // The registry itself broke the connection: the client sees what the proxy saw.
      if (!res.headersSent) req.socket.resetAndDestroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Loopback only: fault traffic never leaves the machine.
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    ledger,
    fateOf: (requestId) => {
      // An attempt forwarded whose answer may not have reached its client may still be acting: nothing is known.
      return unsettled.has(requestId) ? null : (fates.get(requestId) ?? null);
    },
    traffic: () =>
      seconds.map((b, second) => ({
        second,
        requests: b.requests,
        errors: b.errors,
        latency_ms_mean: b.requests ? Math.round(b.latency / b.requests) : 0,
        latency_ms_max: Math.round(b.max),
      })),
    fault: (f = DEFAULT_PROXY_FAULTS) => void (faults = f),
    heal: () => void (faults = null),
    async close() {
      faults = null;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      // Forwards still waiting on the target have no client left to answer.
      await dispatcher.destroy();
    },
  };
}
