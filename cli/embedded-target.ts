// The registry `fleetproof certify` starts when no --target is given: the
// reference on the store asked for — in this process on the memory store; on
// PostgreSQL (from PG_URL or an embedded server) as a child process, so the
// faults stage can kill it and start it again on the same database.
// certify/ receives it from here, so only the composition root reaches into
// the reference.
import type { CertificationTarget, EmbeddedStore } from '../certify/run-certification.ts';
import { embeddedPostgres, type CertificationPostgres } from '../reference/embedded-postgres.ts';
import { startEmbeddedReference } from '../reference/embedded-reference.ts';
import { postgresFaults } from './builtin-faults.ts';
import { onTermination } from './orphan-watch.ts';
import { startReferenceProcess } from './reference-process.ts';

async function onPostgres(
  pg: CertificationPostgres,
  log: (line: string) => void,
  variant: number | undefined,
): Promise<Omit<CertificationTarget, 'flags'>> {
  const reference = await startReferenceProcess(pg.url, variant);
  log(`embedded reference (postgres store, child process) at ${reference.url}`);
  return {
    url: reference.url,
    key: reference.signingKey,
    keyPath: reference.signingKeyPath,
    embedded: true,
    postgres: pg.version,
    builtinFaults: [...postgresFaults(pg, log), reference.crash],
    close: async () => {
      await reference.close();
      await pg.stop();
    },
  };
}

/** `variant`: the seed of a reference variant to start instead of the reference's own limits and choices. */
export async function startEmbeddedTarget(
  kind: EmbeddedStore,
  log: (line: string) => void,
  variant?: number,
): Promise<CertificationTarget> {
  // The embedded reference is gone after the run: reproduce against `fleetproof serve`.
  const served = `fleetproof serve --store ${kind}${variant === undefined ? '' : ` --variant ${variant}`} --port 8080`;
  const flags = `--target http://127.0.0.1:8080 --key <the signing key \`${served}\` prints>`;
  // A run stopped by a signal stops the registry (and the PostgreSQL server) it started.
  let started: { close(): Promise<void> } | undefined;
  let pg: CertificationPostgres | undefined;
  const stopOnSignal = onTermination(async () => {
    await started?.close();
    await pg?.stop();
  }, log);
  try {
    if (kind === 'postgres') {
      pg = await embeddedPostgres(log);
      const target = await onPostgres(pg, log, variant);
      started = target;
      return { ...target, flags, close: async () => (stopOnSignal(), await target.close()) };
    }
    const reference = await startEmbeddedReference({ store: kind, ...(variant === undefined ? {} : { variant }) });
    started = reference;
    log(`embedded reference (${kind} store${variant === undefined ? '' : `, variant ${variant}`}) at ${reference.url}`);
    return {
      url: reference.url,
      key: reference.signingKey,
      keyPath: reference.signingKeyPath,
      embedded: true,
      flags,
      postgres: null,
      builtinFaults: [],
      close: async () => (stopOnSignal(), await reference.close()),
    };
  } catch (err) {
    stopOnSignal();
    await pg?.stop();
    throw err;
  }
}
