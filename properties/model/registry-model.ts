// The model object fast-check threads through a command sequence: the
// universe of this run, whether the harness drives the registry's clock, and
// the current model state. Commands replace `s` with the state of the branch
// the registry took.
import type { ModelState } from './model-state.ts';
import type { Universe } from '../targets/universe.ts';

export class RegistryModel {
  constructor(
    readonly u: Universe,
    public s: ModelState,
    /** False when the registry keeps its own time: commands that need time to pass must wait for it. */
    readonly manualClock: boolean,
  ) {}
}
