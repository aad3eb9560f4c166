// The generator's own code warmed before the test: a fresh VU thread, and
// the main thread before its first run (async VUs included), execute the
// request path (the k6 http module, the bridge between the threads, undici,
// the metric records) in V8's interpreter until it is compiled, and the first second of a high
// arrival rate measured the compiler instead of the target, dropping a
// fifth of its arrivals. So before a test with a high arrival rate starts,
// every pre-allocated VU sends a few requests to a loopback server of the
// runner's own, never to the target, and their samples are thrown away.
// Below that rate the cold start costs nothing a run can see.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpService } from './http-service.ts';
import { LocalVu, type LocalScript, type LocalVuSetup } from './local-vus.ts';
import type { ScenarioConfig } from './scenarios.ts';
import type { VirtualUser } from './vu-pool.ts';

/** Requests per VU: enough for V8 to compile the path, a fraction of a second in all. */
const WARM_UP_REQUESTS = 60;

/** Arrivals a second from which the cold start drops arrivals on a 2-core machine. */
export const WARM_UP_FROM_RATE = 1000;

/** The highest arrival rate a second any arrival-rate scenario asks for. */
export function peakArrivalRate(scenarios: readonly ScenarioConfig[]): number {
  let peak = 0;
  for (const s of scenarios) {
    if (s.executor === 'constant-arrival-rate') peak = Math.max(peak, (s.rate * 1000) / s.timeUnitMs);
    if (s.executor === 'ramping-arrival-rate')
      for (const rate of [s.startRate, ...s.stages.map((st) => st.target)]) peak = Math.max(peak, (rate * 1000) / s.timeUnitMs);
  }
  return peak;
}

/** A body the size of a registry's answer, so the same parsing paths run. */
const BODY = JSON.stringify({ warm_up: true, padding: 'x'.repeat(240) });

export async function warmUp(vus: readonly VirtualUser[], http: HttpService): Promise<void> {
  if (vus.length === 0) return;
  await withLoopbackServer(http, async (url) => {
    const results = await Promise.all(vus.map((vu) => vu.call('::warm-up', { url, requests: WARM_UP_REQUESTS }, '')));
    const failed = results.find((r) => r.error);
    if (failed) throw new Error(`the VUs' warm-up failed: ${failed.error}`);
  });
}

/** Async VUs warming the request path together, and the requests each sends. */
const LOCAL_WARM_UP_VUS = 8;
const LOCAL_WARM_UP_REQUESTS = 300;

/**
 * The async VUs all run this thread's code, so a few throwaway VUs compile
 * it for every one; what they emit and log is discarded.
 */
export async function warmUpLocal(script: LocalScript, setup: LocalVuSetup): Promise<void> {
  const quiet: LocalVuSetup = { ...setup, samples: () => {}, console: () => {} };
  await withLoopbackServer(setup.http, async (url) => {
    const vus = Array.from({ length: LOCAL_WARM_UP_VUS }, () => new LocalVu(0, script, quiet));
    await Promise.all(vus.map((vu) => vu.warmUp(url, LOCAL_WARM_UP_REQUESTS)));
  });
}

async function withLoopbackServer(http: HttpService, use: (url: string) => Promise<void>): Promise<void> {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(BODY));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    await use(`${origin}/warm-up`);
  } finally {
    await http.forget(origin);
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
}
