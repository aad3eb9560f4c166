// The PostgreSQL store's entry point. `openPostgresStore` connects (or starts
// an embedded server when given no URL), migrates or verifies the schema and
// returns a RegistryStore.
//
// Connection modes:
// - `url` alone: the owner's URL. Migrations run with it; the control pool
//   assumes the fleetproof_control role and the data pool fleetproof_data, so
//   the privilege split holds even with one login.
// - `controlUrl` and `dataUrl`: login users granted those roles. Migrations
//   need an owner: run `migrateRegistrySchema` separately, or pass `url` too.
// - `dataPlaneOnly`: the data pool only (from `dataUrl`, or `url` assuming
//   the data role). The schema version must match exactly; catalog writes are
//   STORAGE_UNAVAILABLE naming the missing control-plane credentials.
import { availableParallelism } from 'node:os';
import { DEFAULT_LIMITS } from '../../../contract/records.ts';
import { referenceChoices } from '../../domain/choices.ts';
import { fenceTokenSource } from '../../domain/fence-token.ts';
import { validateLimits } from '../../domain/limits.ts';
import { systemClock } from '../../domain/time.ts';
import type { RegistryStore, StoreOptions } from '../registry-store.ts';
import type { ConnectionQueue } from './connection-queue.ts';
import { asRegistryError, createPool } from './database.ts';
import { startEmbeddedPostgres, type EmbeddedServer, type EmbeddedServerOptions } from './embedded-server.ts';
import { migrateRegistrySchema, verifySchemaVersion } from './migrate.ts';
import { PostgresStore } from './postgres-store.ts';
import { installStandIns } from './stand-ins.ts';

export { startEmbeddedPostgres, type EmbeddedServer, type EmbeddedServerOptions } from './embedded-server.ts';
export { migrateRegistrySchema, SCHEMA_VERSION } from './migrate.ts';
export { PostgresStore } from './postgres-store.ts';

export const CONTROL_ROLE = 'fleetproof_control';
export const DATA_ROLE = 'fleetproof_data';
/** The application_name of the store's sessions, by pool: how a fault or an operator finds the registry's own sessions. */
export const SESSION_NAMES = { control: 'fleetproof-control', data: 'fleetproof-data' } as const;

export interface PostgresStoreOptions extends StoreOptions {
  /** Owner URL: migrates, and both pools assume their role through it. */
  url?: string;
  controlUrl?: string;
  dataUrl?: string;
  /** Hold no control pool; verify the schema instead of migrating. */
  dataPlaneOnly?: boolean;
  /** Apply pending migrations at open (default: when an owner `url` is given). */
  migrate?: boolean;
  controlPoolSize?: number;
  /** Data-plane connections; DEFAULT_DATA_POOL_SIZE otherwise. */
  dataPoolSize?: number;
  statementTimeoutMs?: number;
  /** The bounded queue for a connection of either pool ([failure-overload]); DEFAULT_CONNECTION_QUEUE otherwise. */
  connectionQueue?: Partial<ConnectionQueue>;
  /** Where the embedded server keeps its data when no URL is given. */
  embedded?: EmbeddedServerOptions;
}

/**
 * Four connections a core of this machine, at most 32. Transactions that
 * wait for one row (a hot replica, a tenant's admission counter) hand it on
 * only as fast as the next holder gets a core: with 32 connections on 2
 * cores, 1,000 resolves for one replica took turns at 324 to 457 routes/s,
 * with 8 at 721 to 805, and the cold catalog views and the resolve+settle
 * pairs were no slower (`BENCH_DATA_POOL=N npm run bench:pg`, docs/figures.md).
 */
const DEFAULT_DATA_POOL_SIZE = Math.min(32, 4 * availableParallelism());

export async function openPostgresStore(options: PostgresStoreOptions = {}): Promise<RegistryStore> {
  const limits = validateLimits({ ...DEFAULT_LIMITS, ...options.limits });
  const choices = referenceChoices(options.choices);
  let server: EmbeddedServer | undefined;
  let url = options.url;
  if (!url && !options.controlUrl && !options.dataUrl) {
    server = await startEmbeddedPostgres(options.embedded);
    url = server.url;
  }
  const statementTimeoutMs = options.statementTimeoutMs ?? 30_000;
  const dataPlaneOnly = options.dataPlaneOnly ?? false;
  try {
    if (url && !dataPlaneOnly && (options.migrate ?? true)) await migrateRegistrySchema(url);
    const standIns = options.raceHooks?.standInFunctions;
    if (standIns !== undefined && !url) throw new Error('stand-in functions (a race hook) are installed with the owner `url`');
    const searchPath = standIns === undefined ? undefined : await installStandIns(url!, standIns);
    const control =
      dataPlaneOnly || !(options.controlUrl ?? url)
        ? undefined
        : createPool({
            url: (options.controlUrl ?? url)!,
            role: options.controlUrl ? undefined : CONTROL_ROLE,
            max: options.controlPoolSize ?? 4,
            statementTimeoutMs,
            queue: options.connectionQueue,
            applicationName: SESSION_NAMES.control,
          });
    const dataUrl = options.dataUrl ?? url;
    if (!dataUrl) throw new Error('openPostgresStore needs `url` or `dataUrl`');
    const data = createPool({
      url: dataUrl,
      role: options.dataUrl ? undefined : DATA_ROLE,
      max: options.dataPoolSize ?? DEFAULT_DATA_POOL_SIZE,
      statementTimeoutMs,
      queue: options.connectionQueue,
      applicationName: SESSION_NAMES.data,
      ...(searchPath ? { searchPath } : {}),
    });
    try {
      await verifySchemaVersion((text) => data.query(text));
    } catch (err) {
      await Promise.all([control?.end(), data.end()]);
      throw err;
    }
    return new PostgresStore({
      control,
      data,
      limits,
      clock: options.clock ?? systemClock,
      fenceTokens: options.fenceTokens ?? fenceTokenSource(choices.fenceTokens),
      choices,
      onClose: server ? () => server.stop() : undefined,
    });
  } catch (err) {
    await server?.stop();
    throw asRegistryError(err);
  }
}
