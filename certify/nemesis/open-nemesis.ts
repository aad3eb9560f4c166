// `--nemesis KIND[,KIND…]` for properties, load and certify: opens the faults
// the kinds name in front of one target and runs a body under them. The
// harness talks to the returned url — the proxy's, when `proxy` is among the
// kinds — while the readiness of the registry itself is read from its own.
import { commandFaults, parseNemesisCommands } from './command-faults.ts';
import { startFaultProxy, type FaultProxy } from './fault-proxy.ts';
import { startNemesis, type Fault, type FaultBand, type Schedule } from './nemesis.ts';

export const NEMESIS_KINDS = ['proxy', 'command', 'builtin'] as const;
export type NemesisKind = (typeof NEMESIS_KINDS)[number];

export function parseNemesisKinds(text: string): NemesisKind[] {
  const kinds = [...new Set(text.split(',').map((k) => k.trim()).filter(Boolean))];
  for (const k of kinds) if (!(NEMESIS_KINDS as readonly string[]).includes(k)) throw new Error(`--nemesis takes ${NEMESIS_KINDS.join(', ')}, not ${k}`);
  if (kinds.length === 0) throw new Error('--nemesis needs at least one kind');
  return kinds as NemesisKind[];
}

export interface NemesisRequest {
  kinds: readonly NemesisKind[];
  schedule: Schedule;
  /** `--nemesis-cmd` values, for `command`. */
  commands?: readonly string[];
  /** The embedded reference's own faults, for `builtin`. */
  builtin?: readonly Fault[];
  seed?: number;
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
    if (!request.builtin) throw new Error('--nemesis builtin breaks the embedded reference only; a served registry takes --nemesis proxy or command');
    faults.push(...request.builtin);
  }
  // Parsed before the proxy starts, so a usage error leaves nothing running.
  if (request.kinds.includes('command')) faults.push(...commandFaults(parseNemesisCommands(request.commands ?? []), log));
  else if ((request.commands ?? []).length > 0) throw new Error('--nemesis-cmd needs --nemesis command');
  const proxy = request.kinds.includes('proxy') ? await startFaultProxy({ target, ...(request.seed !== undefined ? { seed: request.seed } : {}) }) : null;
  if (proxy) {
    log(`nemesis: proxy ${proxy.url} → ${target}`);
    faults.unshift({ name: 'proxy', inject: async () => proxy.fault(), heal: async () => proxy.heal() });
  }
  return { url: proxy?.url ?? target, proxy, faults, close: async () => proxy?.close() };
}

export interface UnderNemesis<T> {
  value: T;
  bands: FaultBand[];
}

/**
 * Runs `body` while the schedule breaks things, then stops and heals. Ctrl-C
 * and SIGTERM heal before the process ends, so nothing stays broken.
 */
export async function underNemesis<T>(open: OpenNemesis, schedule: Schedule, readyUrl: string, log: (line: string) => void, body: () => Promise<T>): Promise<UnderNemesis<T>> {
  const run = startNemesis(open.faults, schedule, readyUrl, log);
  const interrupted = (signal: NodeJS.Signals) => {
    log(`nemesis: ${signal}: healing before exit`);
    run.stop().then(
      () => process.exit(130),
      (err: Error) => (log(`nemesis: ${err.message}`), process.exit(130)),
    );
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  let value: T;
  try {
    value = await body();
  } catch (err) {
    await run.stop().catch((e: Error) => log(`nemesis: ${e.message}`));
    throw err;
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
  }
  return { value, bands: await run.stop() };
}
