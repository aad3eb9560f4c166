import { storeDefect } from '../defect.ts';
import { rewrittenAssignments } from '../support/assignments.ts';

export default storeDefect({
  name: 'implicit-default-revision-zero',
  clause: 'admission-implicit-default',
  does: 'an assignment under the implicit default policy records policy_revision 0 instead of 1',
  changes: (inner) =>
    rewrittenAssignments(inner, (view) =>
      view.assignment.admission.policy_ref === null
        ? { ...view, assignment: { ...view.assignment, admission: { ...view.assignment.admission, policy_revision: 0 } } }
        : view,
    ),
});
