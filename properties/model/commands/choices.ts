// Biased draws of the logical names commands act on. Uniform draws over six
// action ids rarely hit the same action twice in a short sequence, and
// capabilities nobody binds end most resolves early; weighting toward the
// first few (which is also where shrinking goes) keeps sequences about the
// same few routes, where pinning, settlement and circuits get interesting.
import fc from 'fast-check';
import type { ActionKey, CapabilityKey } from '../../targets/universe.ts';

export const actionChoice = (): fc.Arbitrary<ActionKey> =>
  fc.oneof(
    { arbitrary: fc.constant<ActionKey>('act-1'), weight: 5 },
    { arbitrary: fc.constant<ActionKey>('act-2'), weight: 4 },
    { arbitrary: fc.constant<ActionKey>('act-3'), weight: 3 },
    { arbitrary: fc.constantFrom<ActionKey>('act-4', 'act-5', 'act-6'), weight: 2 },
  );

export const capabilityChoice = (): fc.Arbitrary<CapabilityKey> =>
  fc.oneof(
    { arbitrary: fc.constant<CapabilityKey>('search'), weight: 5 },
    { arbitrary: fc.constant<CapabilityKey>('fetch'), weight: 3 },
    { arbitrary: fc.constant<CapabilityKey>('notify'), weight: 2 },
    { arbitrary: fc.constant<CapabilityKey>('archive'), weight: 1 },
  );
