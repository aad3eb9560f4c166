// The storage port of the reference: the contract's registry port, plus the
// kind of store behind it. The HTTP server and the behaviour suite know
// nothing else.
import type { RegistryPort } from '../../contract/target-port.ts';
import type { ReferenceChoices } from '../domain/choices.ts';
import type { FenceTokenSource } from '../domain/fence-token.ts';
import type { Clock } from '../domain/time.ts';
import type { RegistryLimits } from '../../contract/records.ts';
import type { RaceHooks } from './race-hooks.ts';

export interface RegistryStore extends RegistryPort {
  readonly kind: 'memory' | 'postgres';
}

export interface StoreOptions {
  clock?: Clock;
  fenceTokens?: FenceTokenSource;
  limits?: Partial<RegistryLimits>;
  /** Seams between checks and writes, all off unless given (race-hooks.ts). */
  raceHooks?: RaceHooks;
  /** The implementation-defined behaviours to take instead of the reference's own (a variant's). */
  choices?: Partial<ReferenceChoices>;
}
