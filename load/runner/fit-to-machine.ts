// A profile whose phase budgets judge no speed (smoke: budgets_judge_speed
// false) keeps them only to bound the run. On a machine busier than it has
// cores, the engine, the target and whatever else runs there share what is
// left of a core, and a phase cut at its budget then shows the machine, not
// the registry: the run could not judge. Such budgets already hold on a
// machine running BUDGETED_LOAD_PER_CORE processes per core (smoke's were
// set on CI machines at a load average of 4 to 8 on two cores); on a busier
// one they are stretched by how much busier it is as the run starts (its
// one-minute load average per core over that), at most MAX_STRETCH times,
// and the profile's `stretched` note, which the report shows, says so. A
// profile whose budgets judge speed keeps them, and so does a shared plan,
// whose parts run on other machines.
import { availableParallelism, loadavg } from 'node:os';
import type { ResolvedProfile } from './scale-contract.ts';

/** The load per core a speed-agnostic profile's budgets already allow for. */
export const BUDGETED_LOAD_PER_CORE = 2;
/** Beyond this the machine is too busy for any bound to mean much; the run may still be cut and could not judge. */
export const MAX_STRETCH = 8;

/** How many times its budgets a speed-agnostic phase gets at this load: 1 unless the machine is busier than the budgets allow. */
export function budgetStretch(load: number, cores: number): number {
  const busier = load / Math.max(1, cores) / BUDGETED_LOAD_PER_CORE;
  return Math.min(MAX_STRETCH, Math.max(1, Math.ceil(busier * 10) / 10));
}

/** The profile for a machine at `load` (the one-minute load average; this machine's now unless given) on `cores`. */
export function fitProfileToMachine(
  input: ResolvedProfile,
  load: number = loadavg()[0] ?? 0,
  cores: number = availableParallelism(),
): ResolvedProfile {
  const stretch = budgetStretch(load, cores);
  if (input.budgets_judge_speed !== false || stretch <= 1) return input;
  const profile = structuredClone(input);
  for (const phase of profile.phases) if (phase.budget_s !== undefined) phase.budget_s = Math.ceil(phase.budget_s * stretch);
  profile.stretched = `phase budgets ×${stretch}, for a load average of ${load.toFixed(2)} on ${cores} cores (this profile's budgets judge no speed: they only bound the run)`;
  return profile;
}
