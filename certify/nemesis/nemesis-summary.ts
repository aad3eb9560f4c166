// What a run under a nemesis prints when it ends: the faults it injected,
// how long the registry took to recover, what the proxy disturbed, and the
// flags that replay the same schedule.
import type { FaultFigures } from '../../load/runner/fault-figures.ts';
import type { FaultProxy } from './fault-proxy.ts';
import type { FaultBand, Schedule } from './nemesis.ts';

/** Load judges a run under faults by these figures too, so they are its type. */
export type NemesisFigures = FaultFigures;

export function nemesisFigures(bands: readonly FaultBand[], proxy: FaultProxy | null): NemesisFigures {
  const by: Record<string, number> = {};
  for (const b of bands) by[b.fault] = (by[b.fault] ?? 0) + 1;
  const recoveries = bands
    .map((b) => b.recovery_ms)
    .filter((r): r is number => r !== null)
    .sort((a, b) => a - b);
  return {
    faults: bands.length,
    by_fault: by,
    recovery_ms_max: recoveries.at(-1) ?? null,
    recovery_ms_median: recoveries.length ? recoveries[Math.floor(recoveries.length / 2)]! : null,
    forwarded: proxy?.counts.forwarded ?? 0,
    reset_before_forward: proxy?.counts.reset ?? 0,
    lost_after_forward: proxy?.counts.lost ?? 0,
  };
}

/** The flags that rerun this schedule: same kinds, same rhythm, same seed. */
export function replayFlags(kinds: readonly string[], schedule: Schedule, seed: number | undefined): string {
  return `--nemesis ${kinds.join(',')} --nemesis-interval ${schedule.faultMs}ms/${schedule.quietMs}ms${seed !== undefined ? ` --nemesis-seed ${seed}` : ''}`;
}

/** The nemesis flags of a rerun command; the vendor's fault commands, which may hold credentials, as placeholders. */
export function nemesisFlags(n: { kinds: readonly string[]; schedule: Schedule; commands?: readonly string[]; seed?: number }): string[] {
  return [
    '--nemesis',
    n.kinds.join(','),
    '--nemesis-interval',
    `${n.schedule.faultMs}ms/${n.schedule.quietMs}ms`,
    ...(n.seed !== undefined ? ['--nemesis-seed', String(n.seed)] : []),
    ...(n.commands ?? []).flatMap((c) => ['--nemesis-cmd', `${c.split('=')[0]}=YOUR COMMAND`]),
  ];
}

export function summaryLines(f: NemesisFigures, replay: string): string[] {
  const kinds = Object.entries(f.by_fault)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return [
    `nemesis: ${f.faults} fault(s)${kinds ? ` (${kinds})` : ''}; recovery median ${f.recovery_ms_median ?? '-'} ms, max ${f.recovery_ms_max ?? '-'} ms`,
    ...(f.forwarded + f.reset_before_forward > 0
      ? [
          `nemesis: proxy forwarded ${f.forwarded} request(s), reset ${f.reset_before_forward} before forwarding, lost ${f.lost_after_forward} response(s) after the registry acted`,
        ]
      : []),
    `nemesis: schedule ${replay}`,
  ];
}
