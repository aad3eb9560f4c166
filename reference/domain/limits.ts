// Registry limits (advertised in GET /version). A store refuses limits
// outside the legal ranges of spec.md [limits-declared], so the reference can
// be started with any legal limits and only with legal ones.
import { limitProblems, type RegistryLimits } from '../../contract/records.ts';

export function validateLimits(limits: RegistryLimits): RegistryLimits {
  const problems = limitProblems(limits);
  if (problems.length > 0) throw new RangeError(`illegal limits: ${problems.join('; ')}`);
  return Object.freeze({ ...limits });
}
