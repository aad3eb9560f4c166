// `fleetproof serve`: the reference registry over HTTP. The first stdout line
// is exactly `listening on http://HOST:PORT`, so a harness can start it on
// port 0 and read the address; without --jwks (or FLEETPROOF_JWKS) it also prints where the
// ephemeral signing key is, so the harness can mint tokens.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JSONWebKeySet } from 'jose';
import { loadJwks, loadSigningKey, parseJwks, writeSigningKeys } from '../contract/tokens.ts';
import { assembledServer, assembledStore, PLAIN_ASSEMBLY } from '../reference/assembly.ts';
import { openFileLimit, type ConnectionLimits } from '../reference/http/connection-limits.ts';
import { type ConnectionQueue } from '../reference/store/postgres/connection-queue.ts';
import { isStoreKind, openReferenceStore } from '../reference/store/open-store.ts';
import type { RegistryStore } from '../reference/store/registry-store.ts';
import { describeVariant } from '../reference/variant/draw-variant.ts';
import { variantOptions } from '../reference/variant/variant-options.ts';
import { parseFlags, UsageError } from './args.ts';
import { defectOf } from './defect-flag.ts';
import { variantOf } from './variant-flag.ts';
import { signalWatch } from './orphan-watch.ts';
import { unknownName } from './suggest.ts';

import { CONNECTION_FLAGS, FLAGS, QUEUE_FLAGS, summary } from './flags/serve.ts';

function positiveInteger(flag: string, text: string | undefined): number {
  if (text === undefined || !/^[0-9]{1,10}$/.test(text) || Number(text) <= 0)
    throw usageError(`--${flag} must be a positive integer, not ${text}`);
  return Number(text);
}

function usageError(message: string): UsageError {
  return new UsageError(`${message}`);
}

function parsePort(text: string): number {
  if (!/^[0-9]{1,5}$/.test(text) || Number(text) > 65535) throw usageError(`--port must be an integer between 0 and 65535, not ${text}`);
  return Number(text);
}

async function trustedKeys(jwksPath: string | undefined): Promise<{ jwks: JSONWebKeySet; ephemeralDir?: string; signingKeyPath?: string }> {
  if (jwksPath !== undefined) {
    try {
      return { jwks: await loadJwks(jwksPath) };
    } catch (err) {
      throw usageError((err as Error).message);
    }
  }
  const fromEnv = process.env['FLEETPROOF_JWKS'];
  if (fromEnv !== undefined && fromEnv !== '') {
    try {
      return { jwks: parseJwks(JSON.parse(fromEnv)) };
    } catch (err) {
      throw usageError(`FLEETPROOF_JWKS: ${(err as Error).message}`);
    }
  }
  const dir = await mkdtemp(join(tmpdir(), 'fleetproof-keys-'));
  const files = await writeSigningKeys(dir);
  return { jwks: await loadJwks(files.jwksPath), ephemeralDir: dir, signingKeyPath: files.signingKeyPath };
}

export async function run(argv: string[]): Promise<number> {
  const parsed = parseFlags('serve', summary, FLAGS, argv);
  if (!parsed) return 0;
  const { values } = parsed;
  const kind = values.store;
  if (!isStoreKind(kind)) throw usageError(unknownName('store', kind!, ['memory', 'postgres']));
  if (values['pg-url'] !== undefined && values.store !== 'postgres') throw usageError('--pg-url needs --store postgres');
  const port = parsePort(values.port!);
  const defect = await defectOf(values.defect);
  if (defect && !defect.stores.includes(kind))
    throw usageError(`--defect ${defect.name} runs on ${defect.stores.join(' and ')}, not ${kind}`);
  const assembly = defect?.assemble() ?? PLAIN_ASSEMBLY;
  const variant = variantOf(values.variant);
  const split = variantOptions(variant?.seed);
  const connections = {} as ConnectionLimits;
  for (const [flag, [key]] of Object.entries(CONNECTION_FLAGS))
    connections[key] = positiveInteger(flag, values[flag as keyof typeof CONNECTION_FLAGS]);
  const pgQueue = {} as ConnectionQueue;
  for (const [flag, [key]] of Object.entries(QUEUE_FLAGS)) pgQueue[key] = positiveInteger(flag, values[flag as keyof typeof QUEUE_FLAGS]);
  const files = openFileLimit();
  // Past the limit, accepting a connection fails with EMFILE instead of the cap closing it.
  if (files !== null && files < connections.maxConnections + 64) {
    console.error(
      `fleetproof serve: the open-file limit (${files}, ulimit -n) is below --max-connections ${connections.maxConnections} plus headroom; raise it or lower --max-connections`,
    );
  }
  const keys = await trustedKeys(values.jwks);

  const forgetKeys = () => (keys.ephemeralDir ? rm(keys.ephemeralDir, { recursive: true, force: true }) : Promise.resolve());
  const pgUrl = values['pg-url'] ?? process.env['PG_URL'];
  let store: RegistryStore;
  try {
    store = assembledStore(
      assembly,
      await openReferenceStore(kind, {
        pgQueue,
        ...split.store,
        ...(assembly.raceHooks ? { raceHooks: assembly.raceHooks } : {}),
        ...(kind === 'postgres' && pgUrl ? { pgUrl } : {}),
      }),
    );
  } catch (err) {
    await forgetKeys();
    console.error(`fleetproof serve: cannot open the ${values.store} store: ${(err as Error).message}`);
    return 2;
  }
  let server;
  try {
    const signingKey = keys.signingKeyPath ? await loadSigningKey(keys.signingKeyPath) : null;
    server = assembledServer(assembly, { store, jwks: keys.jwks, connections, ...split.server }, { signingKey });
  } catch (err) {
    await store.close();
    await forgetKeys();
    throw usageError((err as Error).message);
  }
  const signals = signalWatch();
  try {
    console.log(`listening on ${await server.listen(port, values.host)}`);
  } catch (err) {
    signals.stop();
    await store.close();
    await forgetKeys();
    const busy = (err as NodeJS.ErrnoException).code === 'EADDRINUSE';
    const hint = busy ? `: the port is in use; stop what holds it, or give --port 0 for a free one` : `: ${(err as Error).message}`;
    console.error(`fleetproof serve: cannot listen on ${values.host}:${port}${hint}`);
    return 2;
  }
  if (keys.signingKeyPath) console.log(`signing key: ${keys.signingKeyPath}`);
  if (variant) console.log(describeVariant(variant));
  if (defect) console.log(`deliberate defect ${defect.name} [${defect.clause}]: ${defect.does}`);

  const signal = await signals.received;
  console.error(`fleetproof serve: ${signal}, finishing in-flight requests`);
  await server.close();
  await store.close();
  await forgetKeys();
  return 0;
}
