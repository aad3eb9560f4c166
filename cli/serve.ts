// `fleetproof serve`: the reference registry over HTTP. The first stdout line
// is exactly `listening on http://HOST:PORT`, so a harness can start it on
// port 0 and read the address; without --jwks (or FLEETPROOF_JWKS) it also prints where the
// ephemeral signing key is, so the harness can mint tokens.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JSONWebKeySet } from 'jose';
import { loadJwks, parseJwks, writeSigningKeys } from '../contract/tokens.ts';
import { isFaultName, type FaultName, type Faults } from '../reference/domain/faults.ts';
import { createRegistryServer } from '../reference/http/server.ts';
import { isStoreKind, openReferenceStore } from '../reference/store/open-store.ts';
import type { RegistryStore } from '../reference/store/registry-store.ts';
import { helpText, parseFlags, UsageError, type FlagSpec } from './args.ts';

export const summary = 'serve the reference registry over HTTP';

const FLAGS = {
  store: { type: 'string', description: 'memory or postgres', default: 'memory' },
  'pg-url': { type: 'string', description: 'PostgreSQL URL for --store postgres (default $PG_URL, else an embedded server)' },
  host: { type: 'string', description: 'address to listen on', default: '127.0.0.1' },
  port: { type: 'string', description: 'port to listen on; 0 picks a free one', default: '8080' },
  jwks: { type: 'string', description: 'trusted public JWK set file (else $FLEETPROOF_JWKS as JSON, else a fresh key pair in a temporary directory)' },
  fault: { type: 'string', multiple: true, description: 'deliberate defect to inject (needs FLEETPROOF_ALLOW_FAULTS=1); repeatable' },
} satisfies Record<string, FlagSpec>;

function usageError(message: string): UsageError {
  return new UsageError(`${message}\n\n${helpText('serve', summary, FLAGS)}`);
}

function parsePort(text: string): number {
  if (!/^[0-9]{1,5}$/.test(text) || Number(text) > 65535) throw usageError(`--port must be an integer between 0 and 65535, not ${text}`);
  return Number(text);
}

/** Faults are for proving the suites catch defects; they are refused unless explicitly allowed. */
function parseFaults(names: string[]): Faults {
  if (names.length === 0) return new Set();
  if (process.env['FLEETPROOF_ALLOW_FAULTS'] !== '1') throw usageError('--fault needs FLEETPROOF_ALLOW_FAULTS=1 in the environment');
  const faults = new Set<FaultName>();
  for (const name of names) {
    if (!isFaultName(name)) throw usageError(`unknown fault ${name}`);
    faults.add(name);
  }
  return faults;
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

/** Listens for SIGINT and SIGTERM from now on, so a signal sent the moment the address is printed is never missed. */
function signalWatch(): { received: Promise<NodeJS.Signals>; stop(): void } {
  let stop = () => {};
  const received = new Promise<NodeJS.Signals>((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      stop();
      resolve(signal);
    };
    stop = () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  return { received, stop };
}

export async function run(argv: string[]): Promise<number> {
  const parsed = parseFlags('serve', summary, FLAGS, argv);
  if (!parsed) return 0;
  const { values } = parsed;
  const kind = values.store;
  if (!isStoreKind(kind)) throw usageError(`--store must be memory or postgres, not ${kind}`);
  if (values['pg-url'] !== undefined && values.store !== 'postgres') throw usageError('--pg-url needs --store postgres');
  const port = parsePort(values.port!);
  const faults = parseFaults(values.fault ?? []);
  const keys = await trustedKeys(values.jwks);

  const forgetKeys = () => (keys.ephemeralDir ? rm(keys.ephemeralDir, { recursive: true, force: true }) : Promise.resolve());
  const pgUrl = values['pg-url'] ?? process.env['PG_URL'];
  let store: RegistryStore;
  try {
    store = await openReferenceStore(kind, { faults, ...(kind === 'postgres' && pgUrl ? { pgUrl } : {}) });
  } catch (err) {
    await forgetKeys();
    console.error(`fleetproof serve: cannot open the ${values.store} store: ${(err as Error).message}`);
    return 2;
  }
  const server = createRegistryServer({ store, jwks: keys.jwks, faults });
  const signals = signalWatch();
  try {
    console.log(`listening on ${await server.listen(port, values.host)}`);
  } catch (err) {
    signals.stop();
    await store.close();
    await forgetKeys();
    console.error(`fleetproof serve: cannot listen on ${values.host}:${port}: ${(err as Error).message}`);
    return 2;
  }
  if (keys.signingKeyPath) console.log(`signing key: ${keys.signingKeyPath}`);

  const signal = await signals.received;
  console.error(`fleetproof serve: ${signal}, finishing in-flight requests`);
  await server.close();
  await store.close();
  await forgetKeys();
  return 0;
}
