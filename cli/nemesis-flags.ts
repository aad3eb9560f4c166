// How the nemesis flags `properties`, `load` and `certify` share
// (flags/shared.ts, NEMESIS_FLAGS) become a request for certify/nemesis: which kinds, on what schedule, with
// which of the user's own commands.
import { parseNemesisCommands } from '../certify/nemesis/command-faults.ts';
import { parseInterval } from '../certify/nemesis/interval.ts';
import type { Fault } from '../certify/nemesis/nemesis.ts';
import { parseNemesisKinds, randomSeed, type NemesisRequest } from '../certify/nemesis/open-nemesis.ts';
import { UsageError } from './args.ts';

interface NemesisValues {
  nemesis?: string | undefined;
  'nemesis-interval'?: string | undefined;
  'nemesis-cmd'?: string[] | undefined;
  'nemesis-seed'?: string | undefined;
}

function seedOf(text: string | undefined, fallback: number | undefined): number {
  if (text === undefined) return fallback ?? randomSeed();
  if (!/^[0-9]{1,9}$/.test(text)) throw new Error(`--nemesis-seed is a whole number below 10^9, not ${text}`);
  return Number(text);
}

/** The request the flags make, or null without --nemesis; flag errors are usage errors. */
export function nemesisRequestOf(v: NemesisValues, builtin?: readonly Fault[], seed?: number): NemesisRequest | null {
  if (v.nemesis === undefined) {
    if (v['nemesis-interval'] !== undefined || (v['nemesis-cmd'] ?? []).length > 0 || v['nemesis-seed'] !== undefined)
      throw new UsageError('--nemesis-interval, --nemesis-seed and --nemesis-cmd need --nemesis');
    return null;
  }
  try {
    const kinds = parseNemesisKinds(v.nemesis);
    if (!kinds.includes('command') && (v['nemesis-cmd'] ?? []).length > 0) throw new Error('--nemesis-cmd needs --nemesis command');
    if (kinds.includes('command')) parseNemesisCommands(v['nemesis-cmd'] ?? []);
    if (kinds.includes('builtin') && !builtin)
      throw new Error(
        '--nemesis builtin breaks the embedded reference only (certify without --target); a served registry takes proxy or command',
      );
    return {
      kinds,
      schedule: parseInterval(v['nemesis-interval']),
      commands: v['nemesis-cmd'] ?? [],
      ...(builtin ? { builtin } : {}),
      seed: seedOf(v['nemesis-seed'], seed),
    };
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}
