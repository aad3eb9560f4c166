// After a heal the next fault waits until the registry says it is ready
// again (GET /ready answers 200); how long that took is its recovery time.
import { request } from 'undici';

const POLL_MS = 100;

async function isReady(base: string): Promise<boolean> {
  try {
    const res = await request(`${base}/ready`, { headersTimeout: 2000, bodyTimeout: 2000 });
    await res.body.dump();
    return res.statusCode === 200;
  } catch {
    return false;
  }
}

/** Milliseconds until ready; throws when the registry is not ready within `timeoutMs`. */
export async function waitUntilReady(base: string, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while (!(await isReady(base))) {
    if (performance.now() - started > timeoutMs) throw new Error(`${base} was not ready ${timeoutMs} ms after the heal`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return Math.round(performance.now() - started);
}
