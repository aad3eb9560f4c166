// `--nemesis KIND[,KIND…]` for properties, load and certify: opens the faults
// the kinds name in front of one target and runs a body under them. The
// harness talks to the returned url — the proxy's, when `proxy` is among the
// kinds — while the readiness of the registry itself is read from its own.
import { commandFaults, parseNemesisCommands } from './command-faults.ts';
import { startFaultProxy, type FaultProxy, type ProxyFaults } from './fault-proxy.ts';
import { startNemesis, type Fault, type FaultBand, type Schedule } from './nemesis.ts';
import { nemesisFigures, replayFlags, summaryLines, type NemesisFigures } from './nemesis-summary.ts';
import type { Op } from '../../properties/check/history.ts';
import type { CallFaults, OwnOutage } from '../../properties/targets/http/call-outcomes.ts';

/** How long the harness keeps sending a read (or a set-up write) again while a fault keeps it unanswered. */
const RESEND_THROUGH_FAULTS_MS = 60_000;

/**
 * The harness's HTTP calls under a nemesis: the proxy's ledger says which
 * requests never reached the registry, the schedule says when the registry
 * is down by the harness's doing, reads are resent through faults, and
 * resolves and settlements are recorded into `history` when given.
 */
export function callFaultsOf(proxy: FaultProxy | null, outage: OwnOutage, history?: Op[]): CallFaults {
  return {
    notForwarded: (id) => proxy?.fateOf(id) === 'reset-before-forward',
    answeredThenLost: (id) => proxy?.fateOf(id) === 'lost-after-forward',
    readRetryMs: RESEND_THROUGH_FAULTS_MS,
    outage,
    ...(history ? { history } : {}),
  };
}

export const NEMESIS_KINDS = ['proxy', 'command', 'builtin'] as const;
export type NemesisKind = (typeof NEMESIS_KINDS)[number];

export function parseNemesisKinds(text: string): NemesisKind[] {
  const kinds = [
    ...new Set(
      text
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean),
    ),
  ];
  for (const k of kinds)
    if (!(NEMESIS_KINDS as readonly string[]).includes(k)) throw new Error(`--nemesis takes ${NEMESIS_KINDS.join(', ')}, not ${k}`);
  if (kinds.length === 0) throw new Error('--nemesis needs at least one kind');
  return kinds as NemesisKind[];
}

/** A seed for a schedule nobody gave one: printed with the flags that replay it. */
export const randomSeed = (): number => Math.floor(Math.random() * 1e9);

export interface NemesisRequest {
  kinds: readonly NemesisKind[];
  schedule: Schedule;
  /** `--nemesis-cmd` values, for `command`. */
  commands?: readonly string[];
  /** The embedded reference's own faults, for `builtin`. */
  builtin?: readonly Fault[];
  /** When each fault falls and what the proxy disturbs (nemesis.ts); the schedule's exact rhythm without it. */
  seed?: number;
  /** What the proxy does while faulted; its defaults otherwise. */
  proxyFaults?: ProxyFaults;
}

export interface OpenNemesis {
  /** Where the harness sends its requests. */
  readonly url: string;
  readonly proxy: FaultProxy | null;
  readonly faults: readonly Fault[];
  close(): Promise<void>;
}

export async function openNemesis(request: NemesisRequest, target: string, log: (line: string) => void): Promise<OpenNemesis> {
  const faults: Fault[] = [];
  if (request.kinds.includes('builtin')) {
    if (!request.builtin)
      throw new Error('--nemesis builtin breaks the embedded reference only; a served registry takes --nemesis proxy or command');
    faults.push(...request.builtin);
  }
  // Parsed before the proxy starts, so a usage error leaves nothing running.
  if (request.kinds.includes('command')) faults.push(...commandFaults(parseNemesisCommands(request.commands ?? []), log));
  else if ((request.commands ?? []).length > 0) throw new Error('--nemesis-cmd needs --nemesis command');
  const proxy = request.kinds.includes('proxy')
    ? await startFaultProxy({ target, ...(request.seed !== undefined ? { seed: request.seed } : {}) })
    : null;
  if (proxy) {
    log(`nemesis: proxy ${proxy.url} → ${target}`);
    faults.unshift({ name: 'proxy', inject: async () => proxy.fault(request.proxyFaults), heal: async () => proxy.heal() });
  }
  return { url: proxy?.url ?? target, proxy, faults, close: async () => proxy?.close() };
}

export interface UnderNemesis<T> {
  value: T;
  bands: FaultBand[];
  figures: NemesisFigures;
  /** The proxy, closed, with its ledger and traffic, when `proxy` ran. */
  proxy: FaultProxy | null;
}

/**
 * Opens the nemesis in front of `target`, runs `body` against the url the
 * harness must use while the schedule breaks things, then stops, heals and
 * closes. `body` may end the faults early (a load run heals before its audit).
 * Ctrl-C and SIGTERM heal before the process ends, so nothing stays broken.
 */
export async function withNemesis<T>(
  request: NemesisRequest,
  target: string,
  log: (line: string) => void,
  body: (
    url: string,
    endFaults: () => Promise<void>,
    bands: readonly FaultBand[],
    proxy: FaultProxy | null,
    outage: OwnOutage,
  ) => Promise<T>,
  /** When the schedule may start breaking things; at once otherwise. */
  armed?: Promise<void>,
): Promise<UnderNemesis<T>> {
  const open = await openNemesis(request, target, log);
  const run = startNemesis(open.faults, request.schedule, target, log, {
    ...(armed ? { armed } : {}),
    ...(request.seed !== undefined ? { seed: request.seed } : {}),
  });
  const interrupted = (signal: NodeJS.Signals) => {
    log(`nemesis: ${signal}: healing before exit`);
    run.stop().then(
      () => open.close().finally(() => process.exit(130)),
      (err: Error) => (log(`nemesis: ${err.message}`), process.exit(130)),
    );
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    let value: T;
    try {
      value = await body(open.url, async () => void (await run.stop()), run.bands, open.proxy, run.outage);
    } catch (err) {
      await run.stop().catch((e: Error) => log(`nemesis: ${e.message}`));
      throw err;
    }
    const bands = await run.stop();
    const figures = nemesisFigures(bands, open.proxy);
    for (const line of summaryLines(figures, replayFlags(request.kinds, request.schedule, request.seed))) log(line);
    return { value, bands, figures, proxy: open.proxy };
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await open.close();
  }
}
