// The PostgreSQL store's race hook (../race-hooks.ts, `standInFunctions`):
// its atomic steps are SQL functions that call each other by name, so the
// seam inside them is the name. Stand-ins are created in a schema of their
// own, replaced whole at each install, and only the data connections of a
// store given them search it first; the registry's own functions, and every
// other store on the same database, are untouched.
import pg from 'pg';

export const STAND_IN_SCHEMA = 'fleetproof_stand_ins';

/**
 * Installs `functions` (CREATE FUNCTION statements, names unqualified) with
 * the owner's URL; returns the search path under which they stand in for the
 * registry's functions.
 */
export async function installStandIns(ownerUrl: string, functions: string): Promise<string[]> {
  const c = new pg.Client(ownerUrl);
  await c.connect();
  try {
    await c.query('BEGIN');
    const { rows } = await c.query<{ schema: string }>('SELECT current_schema() AS schema');
    const registry = pg.escapeIdentifier(rows[0]!.schema);
    await c.query(`DROP SCHEMA IF EXISTS ${STAND_IN_SCHEMA} CASCADE`);
    await c.query(`CREATE SCHEMA ${STAND_IN_SCHEMA}`);
    await c.query(`GRANT USAGE ON SCHEMA ${STAND_IN_SCHEMA} TO PUBLIC`);
    await c.query(`SET LOCAL search_path = ${STAND_IN_SCHEMA}, ${registry}`);
    await c.query(functions);
    await c.query('COMMIT');
    return [STAND_IN_SCHEMA, registry];
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await c.end();
  }
}
