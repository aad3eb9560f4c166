// Every property suite against the memory store, with a clock the suites
// drive: deterministic, so every counterexample replays exactly.
import { referenceMemoryTarget } from '../../cli/reference-targets.ts';
import { describeSuitesAgainst } from './support.ts';

describeSuitesAgainst('the memory store', { open: async () => referenceMemoryTarget(), file: 'properties/test/memory.property.test.ts' });
