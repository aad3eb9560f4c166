import { storeDefect } from '../defect.ts';
import { rewrittenAssignments } from '../support/assignments.ts';

export default storeDefect({
  name: 'assignment-without-peer-did',
  clause: 'assignment-fields',
  does: 'assignments are answered without their peer_did',
  changes: (inner) =>
    rewrittenAssignments(inner, (view) => {
      const { peer_did: _left, ...assignment } = view.assignment;
      return { ...view, assignment: assignment as typeof view.assignment };
    }),
});
