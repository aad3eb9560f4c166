// Every property suite against the PostgreSQL store, each suite on a fresh
// database of the server PG_URL names (npm test starts an embedded one). The
// only reason to skip is a missing PG_URL, which CI always sets.
import { describe, it } from 'node:test';
import { referencePostgresTarget } from '../../cli/reference-targets.ts';
import { describeSuitesAgainst } from './support.ts';

if (!process.env['PG_URL']) {
  describe('property suites against the PostgreSQL store', () => {
    it('needs PG_URL (run through `npm test`, which starts a server)', (t) => t.skip('PG_URL is not set'));
  });
} else {
  const { postgresTestDatabases } = await import('../../reference/store/postgres/test/test-database.ts');
  const databases = postgresTestDatabases();
  describeSuitesAgainst('the PostgreSQL store', {
    open: () => referencePostgresTarget({ open: async (options) => (await databases.openStore(options)).store }),
    file: 'properties/test/postgres.property.test.ts',
  });
}
