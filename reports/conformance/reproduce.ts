// What a reader pastes to see a failure again: the `fleetproof conform
// --case` command that reruns the case, the `fleetproof token` command that
// mints a token like the one the exchange carried, and a `curl` command that
// replays the exchange with that token in $FLEETPROOF_TOKEN. The exchange
// itself never holds the token (the transport redacts it), so the caller's
// roles and tenant are what make the replay possible. The curl sends what the
// harness's own replay before retirement sent (conformance/runner/replay.ts).
import type { Exchange } from '../../conformance/harness/exchange.ts';
import type { CaseResult, ConformanceResult } from '../../conformance/runner/result.ts';
import { REPLAYED_HEADERS } from '../../conformance/runner/replay.ts';
import { conformRerun } from '../../conformance/runner/rerun.ts';
import { shellQuote } from '../../client/rerun.ts';

export { shellQuote };

/** The key file and audience the run minted its tokens with, as the result document records them; a null key file when the vendor's token command gave them. */
function mintingOf(r: ConformanceResult): { keyFile: string | null; audience: string | null } {
  const key = r.config['key'] as { file?: unknown } | null | undefined;
  const ownCommand = (r.config['credentials'] as { token_cmd?: unknown } | undefined)?.token_cmd === true;
  const audience = r.config['audience'];
  return {
    keyFile: ownCommand ? null : typeof key?.file === 'string' ? key.file : 'KEY',
    audience: typeof audience === 'string' && audience !== 'fleetproof-registry' ? audience : null,
  };
}

export function rerunCommand(r: ConformanceResult, c: CaseResult): string {
  return conformRerun(r.config, { case: c.id });
}

/** The token command for the exchange's caller, or null when the request carried no token. */
export function tokenCommand(r: ConformanceResult, e: Exchange): string | null {
  const caller = e.request.caller;
  if (!caller) return null;
  const { keyFile, audience } = mintingOf(r);
  if (keyFile === null)
    return `# export FLEETPROOF_TOKEN=<what your --token-cmd prints for {tenant}=${caller.tenant ?? "''"} {roles}=${caller.roles.join(',') || "''"}>`;
  const args = ['npx', 'fleetproof', 'token', '--key', keyFile, '--roles', caller.roles.join(',')];
  if (caller.tenant) args.push('--tenant', caller.tenant);
  if (audience) args.push('--audience', audience);
  return `export FLEETPROOF_TOKEN=$(${args.map(shellQuote).join(' ')})`;
}

export function curlCommand(e: Exchange): string {
  const lines = [`curl -sS -i -X ${e.request.method} ${shellQuote(e.request.url)}`];
  if (e.request.caller) lines.push(`-H "Authorization: Bearer $FLEETPROOF_TOKEN"`);
  for (const h of REPLAYED_HEADERS) if (e.request.headers[h] !== undefined) lines.push(`-H ${shellQuote(`${h}: ${e.request.headers[h]}`)}`);
  if (e.request.body) lines.push(`--data-binary ${shellQuote(e.request.body.text)}`);
  return lines.join(' \\\n  ');
}

/** The token and curl commands that replay the exchange, with comments where a replay differs from the run. */
export function exchangeReplay(r: ConformanceResult, e: Exchange): string {
  const out: string[] = [];
  const token = tokenCommand(r, e);
  if (token) out.push(token);
  if (e.request.caller?.note)
    out.push(`# the case sent a token that was ${e.request.caller.note}; this one is a valid token for the same caller`);
  if (e.request.body?.truncated)
    out.push(
      `# the request body was ${e.request.body.bytes} bytes; only the first ${Buffer.byteLength(e.request.body.text)} were recorded, so this replay sends less`,
    );
  out.push(curlCommand(e));
  return out.join('\n');
}

/** Everything that replays a failed case, as one shell snippet. */
export function reproduction(r: ConformanceResult, c: CaseResult): string {
  const out = [`# rerun the case`, rerunCommand(r, c)];
  if (c.exchange) out.push('', '# replay the exchange that showed it', exchangeReplay(r, c.exchange));
  return out.join('\n');
}
