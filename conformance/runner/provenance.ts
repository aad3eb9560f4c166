// Which harness produced a conformance result. The suite is conformance/ over
// contract/, so only changes there make its result "modified".
import { harnessProvenance as provenanceOf, type Provenance } from '../../client/provenance.ts';

export type { Provenance };

export function harnessProvenance(): Provenance {
  return provenanceOf(['conformance', 'contract']);
}
