// Every property suite against the memory store, with a clock the suites
// drive: deterministic, so every counterexample replays exactly.
import { memoryTarget } from '../targets/memory-target.ts';
import { describeSuitesAgainst } from './support.ts';

describeSuitesAgainst('the memory store', { open: async () => memoryTarget(), file: 'properties/test/memory.property.test.ts' });
