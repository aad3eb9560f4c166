import { storeDefect } from '../defect.ts';

export default storeDefect({
  name: 'replica-writes-report-revision-zero',
  clause: 'revision-in-results',
  does: 'replica provisioning and health reports answer catalog_revision 0 instead of the revision they were taken at',
  changes: (inner) => ({
    provisionReplica: async (r) => ({ ...(await inner.provisionReplica(r)), catalog_revision: 0 }),
    reportHealth: async (id, r) => ({ ...(await inner.reportHealth(id, r)), catalog_revision: 0 }),
  }),
});
