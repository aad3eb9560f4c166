// Before a run retires its data, each failure's exchange is sent once more,
// exactly as the report's curl command sends it (method, path, the headers
// it names, the body, a token for the same caller), and the answer is
// recorded: did it reproduce? It is informative only: a verdict never moves
// on a replay, since the registry's state has moved on since the case ran.
// A replay is one more exchange of the run's transport, under the same
// deadline and read bound as every other.
import type { Exchange } from '../../client/exchange.ts';
import { TransportError, type HttpTransport } from '../../client/http-transport.ts';
import type { CaseResult, ReplayOutcome } from './result.ts';

/** The request headers a replay (and the report's curl command) sends as recorded; the token is minted anew. */
export const REPLAYED_HEADERS = ['content-type', 'x-request-id'] as const;

/** Replays run a few at a time, and stop once this long has gone by: a registry that hangs must not hold the run. */
const AT_ONCE = 4;
export const REPLAY_BUDGET_MS = 60_000;

function errorCode(text: string | undefined): string | null {
  try {
    const code = (JSON.parse(text ?? '') as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'string' ? code : null;
  } catch {
    return null;
  }
}

/** Why an exchange cannot be sent again as recorded, or null when it can. */
function notReplayable(e: Exchange, baseUrl: string): string | null {
  if (e.request.caller?.note) return `the case sent a token that was ${e.request.caller.note}, which a replay does not forge again`;
  if (e.request.body?.truncated)
    return `only the first ${Buffer.byteLength(e.request.body.text)} of the body's ${e.request.body.bytes} bytes were recorded`;
  if (!e.request.url.startsWith(baseUrl)) return 'the request went to another address than the target';
  return null;
}

export async function replayExchange(e: Exchange, transport: HttpTransport): Promise<ReplayOutcome> {
  const why = notReplayable(e, transport.baseUrl);
  if (why) return { outcome: 'not-replayed', status: null, code: null, note: why };
  const headers: Record<string, string> = {};
  for (const h of REPLAYED_HEADERS) if (e.request.headers[h] !== undefined) headers[h] = e.request.headers[h]!;
  const caller = e.request.caller;
  const before = e.response ? { status: e.response.status, code: errorCode(e.response.body?.text) } : null;
  try {
    const got = await transport.send({
      method: e.request.method,
      path: e.request.url.slice(transport.baseUrl.length),
      as: caller ? { roles: caller.roles, ...(caller.tenant !== null ? { tenant: caller.tenant } : {}) } : null,
      body: e.request.body?.text,
      headers,
    });
    const code = errorCode(got.text);
    if (before && before.status === got.status && before.code === code)
      return { outcome: 'reproduced', status: got.status, code, note: null };
    const was = before ? `${before.status}${before.code ? ` ${before.code}` : ''}` : 'no answer';
    return { outcome: 'differed', status: got.status, code, note: `the run saw ${was}` };
  } catch (err) {
    if (!TransportError.is(err)) throw err;
    if (err.failure === 'aborted')
      return { outcome: 'not-replayed', status: null, code: null, note: `the replays' ${REPLAY_BUDGET_MS / 1000} s were spent` };
    if (!before) return { outcome: 'reproduced', status: null, code: null, note: `no answer again: ${err.failure}` };
    return { outcome: 'no-answer', status: null, code: null, note: err.message };
  }
}

/** Each failed or errored case with an exchange, replayed once; the others unchanged. */
export async function replayFailures(cases: CaseResult[], transport: HttpTransport): Promise<CaseResult[]> {
  // The replays' own budget: a replay in flight when it is spent stops too, and the conformance budget does not cut them short.
  const spent = AbortSignal.timeout(REPLAY_BUDGET_MS);
  const replaying = transport.with({ signal: spent });
  const out = [...cases];
  const pending = out.map((c, i) => ({ c, i })).filter(({ c }) => (c.status === 'fail' || c.status === 'error') && c.exchange);
  let next = 0;
  const worker = async () => {
    while (next < pending.length) {
      const { c, i } = pending[next++]!;
      const replay: ReplayOutcome = spent.aborted
        ? { outcome: 'not-replayed', status: null, code: null, note: `the replays' ${REPLAY_BUDGET_MS / 1000} s were spent` }
        : await replayExchange(c.exchange!, replaying);
      out[i] = { ...c, replay };
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, pending.length) }, worker));
  return out;
}
