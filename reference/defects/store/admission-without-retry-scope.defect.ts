import { storeDefect } from '../defect.ts';
import { rewrittenAssignments } from '../support/assignments.ts';

export default storeDefect({
  name: 'admission-without-retry-scope',
  clause: 'assignment-admission',
  does: 'assignments are answered with retry_scope null, whatever scope was pinned for retries',
  changes: (inner) =>
    rewrittenAssignments(inner, (view) => ({
      ...view,
      assignment: { ...view.assignment, admission: { ...view.assignment.admission, retry_scope: null } },
    })),
});
