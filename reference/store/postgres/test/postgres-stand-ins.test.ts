// The PostgreSQL store's race hook: stand-in functions reach only the store
// given them. A stand-in that refuses every reservation makes that store's
// resolves refuse, while a store opened on the same database without it
// still routes through the registry's own function.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RegistryError } from '../../../../contract/registry-error.ts';
import { sequentialFenceTokens } from '../../../domain/fence-token.ts';
import { ManualClock } from '../../../domain/time.ts';
import { T0, World } from '../../test/behaviour/world.ts';
import { openPostgresStore } from '../index.ts';
import { postgresTestDatabases } from './test-database.ts';

const databases = postgresTestDatabases();

const REFUSE_EVERY_SCOPE = `
CREATE FUNCTION fleetproof_reserve_scopes(p_kinds text[], p_keys text[], p_limits bigint[])
RETURNS void LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM fleetproof_refuse('capacity:global');
END
$$;
`;

describe('postgres stand-in functions', () => {
  it('stand in for the store given them, and for no other store on the database', async () => {
    const clock = new ManualClock(T0);
    const { store: plain, db } = await databases.openStore({ clock: clock.now, fenceTokens: sequentialFenceTokens() });
    const hooked = await openPostgresStore({
      url: db.url,
      migrate: false,
      clock: clock.now,
      raceHooks: { standInFunctions: REFUSE_EVERY_SCOPE },
    });
    try {
      const f = await new World(plain, clock).fleet({ name: 'standin' });
      const refusal = await new World(hooked, clock).resolve('tenant-a', 'act-hooked', f.capabilityIds[0]!).catch((err: unknown) => err);
      assert.ok(RegistryError.is(refusal) && refusal.code === 'CAPACITY_EXCEEDED', `the stand-in did not run: ${String(refusal)}`);
      const routed = await new World(plain, clock).resolve('tenant-a', 'act-plain', f.capabilityIds[0]!);
      assert.equal(routed.reserved, true);
    } finally {
      await hooked.close();
      await plain.close();
    }
  });
});
