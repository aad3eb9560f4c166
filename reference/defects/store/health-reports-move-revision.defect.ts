import { storeDefect } from '../defect.ts';
import { revisionBumper } from '../support/revision-bump.ts';

export default storeDefect({
  name: 'health-reports-move-revision',
  clause: 'revision-stable',
  does: 'every applied health report also advances the catalog revision',
  changes: (inner) => {
    const bump = revisionBumper(inner, 'health-reports-move-revision');
    return {
      async reportHealth(id, report) {
        const result = await inner.reportHealth(id, report);
        if (result.outcome === 'applied') await bump();
        return { ...result, catalog_revision: await inner.catalogRevision() };
      },
    };
  },
});
