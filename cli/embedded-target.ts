// The registry `fleetproof certify` starts when no --target is given: the
// reference, in this process, on the store asked for (PostgreSQL from PG_URL
// or an embedded server). certify/ receives it from here, so only the
// composition root reaches into the reference.
import type { CertificationTarget, EmbeddedStore } from '../certify/run-certification.ts';
import { embeddedPostgres } from '../reference/embedded-postgres.ts';
import { startEmbeddedReference } from '../reference/embedded-reference.ts';
import { postgresFaults } from './builtin-faults.ts';

export async function startEmbeddedTarget(kind: EmbeddedStore, log: (line: string) => void): Promise<CertificationTarget> {
  const pg = kind === 'postgres' ? await embeddedPostgres(log) : null;
  try {
    const reference = await startEmbeddedReference({ store: kind, ...(pg ? { pgUrl: pg.url } : {}) });
    log(`embedded reference (${kind} store) at ${reference.url}`);
    return {
      url: reference.url,
      key: reference.signingKey,
      keyPath: reference.signingKeyPath,
      embedded: true,
      // The embedded reference is gone after the run: reproduce against `fleetproof serve`.
      flags: `--target http://127.0.0.1:8080 --key <the signing key \`fleetproof serve --store ${kind} --port 8080\` prints>`,
      postgres: pg?.version ?? null,
      builtinFaults: pg ? postgresFaults(pg, log) : [],
      close: async () => {
        await reference.close();
        await pg?.stop();
      },
    };
  } catch (err) {
    await pg?.stop();
    throw err;
  }
}
