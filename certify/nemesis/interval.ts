// `--nemesis-interval FAULT[/QUIET]`: how long each fault lasts and how long
// the registry is left alone between faults, e.g. `3s/5s`. Without it the
// schedule is Jepsen's default rhythm.
import { DEFAULT_SCHEDULE, type Schedule } from './nemesis.ts';

const DURATION = /^([0-9]{1,6})(ms|s|m)$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000 } as const;

function durationMs(text: string): number {
  const m = DURATION.exec(text.trim());
  if (!m) throw new Error(`a nemesis interval is a duration such as 500ms, 3s or 1m, not ${text}`);
  return Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
}

export function parseInterval(text: string | undefined, base: Schedule = DEFAULT_SCHEDULE): Schedule {
  if (text === undefined) return base;
  const [fault, quiet, ...rest] = text.split('/');
  if (rest.length > 0 || fault === undefined) throw new Error(`--nemesis-interval is FAULT[/QUIET], not ${text}`);
  const faultMs = durationMs(fault);
  if (faultMs < 100) throw new Error('--nemesis-interval: a fault lasts at least 100ms');
  return { ...base, faultMs, quietMs: quiet === undefined ? faultMs : durationMs(quiet) };
}
