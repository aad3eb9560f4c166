// After a heal the next fault waits until the registry says it is ready
// again (GET /ready answers 200); how long that took is its recovery time.
import { HttpTransport, TransportError } from '../../client/http-transport.ts';

const POLL_MS = 100;
const READ_TIMEOUT_MS = 2000;

async function isReady(transport: HttpTransport): Promise<boolean> {
  try {
    return (await transport.operation('getReady', { as: null })).status === 200;
  } catch (err) {
    // No answer is not ready yet; anything else is a fault of the harness.
    if (TransportError.is(err)) return false;
    throw err;
  }
}

/** Milliseconds until ready; throws when the registry is not ready within `timeoutMs`. */
export async function waitUntilReady(base: string, timeoutMs: number): Promise<number> {
  const started = performance.now();
  const transport = new HttpTransport({ baseUrl: base, timeoutMs: READ_TIMEOUT_MS });
  try {
    while (!(await isReady(transport))) {
      if (performance.now() - started > timeoutMs) throw new Error(`${base} was not ready ${timeoutMs} ms after the heal`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    await transport.close();
  }
  return Math.round(performance.now() - started);
}
