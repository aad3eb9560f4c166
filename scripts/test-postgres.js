// Placeholder until the PostgreSQL store lands: tests that need a database
// will receive PG_URL from here.

/**
 * @param {() => Promise<number>} run
 * @param {string[]} _files
 * @returns {Promise<number>}
 */
export async function withTestDatabaseServer(run, _files) {
  return run();
}
