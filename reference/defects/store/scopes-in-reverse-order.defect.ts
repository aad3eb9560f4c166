import { storeDefect } from '../defect.ts';
import { rewrittenAssignments } from '../support/assignments.ts';

export default storeDefect({
  name: 'scopes-in-reverse-order',
  clause: 'admission-scopes',
  does: "an assignment lists its base scopes from binding down to global instead of the contract's order",
  changes: (inner) =>
    rewrittenAssignments(inner, (view) => ({
      ...view,
      assignment: {
        ...view.assignment,
        admission: { ...view.assignment.admission, base_scopes: [...view.assignment.admission.base_scopes].reverse() },
      },
    })),
});
