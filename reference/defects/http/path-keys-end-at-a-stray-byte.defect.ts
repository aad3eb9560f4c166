import { httpDefect } from '../defect.ts';
import { operationOf } from '../support/http.ts';

/** The reads by key: a router that matches their parameter with an unanchored pattern keeps its longest valid start. */
const READS = new Set(['getConnectorType', 'getVersion', 'getInstance', 'getReplica', 'getAdmissionPolicy']);
const VALID_START = /^[A-Za-z0-9._:-]*/;

export default httpDefect({
  name: 'path-keys-end-at-a-stray-byte',
  clause: 'records-reads',
  does: 'a key read with bytes outside its pattern appended reads the record of the key before them instead of 404',
  requests: (next) => (req, res) => {
    const op = operationOf(req);
    if (op !== null && READS.has(op.operationId)) {
      for (const raw of Object.values(op.params)) {
        const key = decodeURIComponent(raw);
        const start = VALID_START.exec(key)![0];
        if (start !== key && start !== '') req.url = req.url!.replace(raw, encodeURIComponent(start));
      }
    }
    next(req, res);
  },
});
