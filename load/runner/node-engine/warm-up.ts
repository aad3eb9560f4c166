// The runner's own code warmed before the test: before its first run the
// thread executes the request path (the k6 http module, undici, the metric
// samples) in V8's interpreter until it is compiled, and the first second
// of a high arrival rate measured the compiler instead of the target,
// dropping a fifth of its arrivals. So before a test with a high arrival
// rate starts, a few throwaway VUs send requests to a loopback server of
// the runner's own, never to the target, and what they emit is thrown
// away. Below that rate the cold start costs nothing a run can see.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpService } from './http-service.ts';
import { VirtualUser, type LoadedScript, type VuSetup } from './virtual-users.ts';
import type { ScenarioConfig } from './scenarios.ts';

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

/** VUs warming the request path together, and the requests each sends. */
const WARM_UP_VUS = 8;
const WARM_UP_REQUESTS = 300;

/** Every VU runs this thread's code, so a few throwaway VUs compile it for all of them. */
export async function warmUp(script: LoadedScript, setup: VuSetup): Promise<void> {
  const quiet: VuSetup = { ...setup, samples: () => {} };
  await withLoopbackServer(setup.http, async (url) => {
    const vus = Array.from({ length: WARM_UP_VUS }, () => new VirtualUser(0, script, quiet));
    await Promise.all(vus.map((vu) => vu.warmUp(url, WARM_UP_REQUESTS)));
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
