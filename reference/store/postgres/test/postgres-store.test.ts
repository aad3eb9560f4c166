// The shared behaviour suite, unchanged, against the PostgreSQL store: each
// test gets a fresh database cloned from this file's migrated template.
import { describeStoreBehaviour } from '../../test/behaviour/index.ts';
import { postgresTestDatabases } from './test-database.ts';

const databases = postgresTestDatabases();

describeStoreBehaviour('postgres', databases.storeFactory());
