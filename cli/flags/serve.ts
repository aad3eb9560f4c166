// What `fleetproof serve` accepts: its summary and flags, as data. The
// dispatcher (main.ts) reads this alone for --help and to refuse an unknown
// flag, so it imports only what loads at once: never the command's module, nor
// a package a run needs (cli/test/answers-from-flags.test.ts).
import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from '../../reference/http/connection-limits.ts';
import { DEFAULT_CONNECTION_QUEUE, type ConnectionQueue } from '../../reference/store/postgres/connection-queue.ts';
import type { FlagSpec } from '../args.ts';
import { DEFECT_FLAG, VARIANT_FLAG } from './shared.ts';

export const summary = 'serve the reference registry over HTTP';

/** The connection limits ([wire-head-limits], [wire-connection-timeouts]) and the PostgreSQL queue ([failure-overload]), by flag. */
export const CONNECTION_FLAGS = {
  'headers-timeout-ms': ['headersTimeoutMs', 'a client must send its request head within this'],
  'request-timeout-ms': ['requestTimeoutMs', 'a client must send its whole request within this'],
  'keep-alive-timeout-ms': ['keepAliveTimeoutMs', 'an idle keep-alive connection is closed after this'],
  'max-connections': ['maxConnections', 'connections held at once (each needs a file descriptor: mind ulimit -n)'],
  'max-url-bytes': ['maxUrlBytes', 'longest request target; above it URI_TOO_LONG'],
  'max-header-bytes': ['maxHeaderBytes', 'largest sum of header fields; above it HEADERS_TOO_LARGE'],
  'max-head-bytes': ['maxHeadBytes', 'largest request head read at all'],
} as const satisfies Record<string, readonly [keyof ConnectionLimits, string]>;
export const QUEUE_FLAGS = {
  'pg-queue-size': ['size', 'requests that may wait for a PostgreSQL connection; more are STORAGE_UNAVAILABLE'],
  'pg-queue-wait-ms': ['waitMs', 'how long a request waits for a PostgreSQL connection'],
} as const satisfies Record<string, readonly [keyof ConnectionQueue, string]>;

function numberFlags(): Record<keyof typeof CONNECTION_FLAGS | keyof typeof QUEUE_FLAGS, FlagSpec> {
  const flags = {} as Record<keyof typeof CONNECTION_FLAGS | keyof typeof QUEUE_FLAGS, FlagSpec>;
  for (const [flag, [key, description]] of Object.entries(CONNECTION_FLAGS)) {
    flags[flag as keyof typeof CONNECTION_FLAGS] = { type: 'string', description, default: String(DEFAULT_CONNECTION_LIMITS[key]) };
  }
  for (const [flag, [key, description]] of Object.entries(QUEUE_FLAGS)) {
    flags[flag as keyof typeof QUEUE_FLAGS] = { type: 'string', description, default: String(DEFAULT_CONNECTION_QUEUE[key]) };
  }
  return flags;
}

export const FLAGS = {
  store: { type: 'string', description: 'memory or postgres', default: 'memory' },
  'pg-url': { type: 'string', description: 'PostgreSQL URL for --store postgres (default $PG_URL, else an embedded server)' },
  host: { type: 'string', description: 'address to listen on', default: '127.0.0.1' },
  port: { type: 'string', description: 'port to listen on; 0 picks a free one', default: '8080' },
  // FLEETPROOF_JWKS holds the set itself (a container's secret), so the file is FLEETPROOF_JWKS_FILE.
  jwks: {
    type: 'string',
    env: 'FLEETPROOF_JWKS_FILE',
    description:
      'trusted public JWK set file (FLEETPROOF_JWKS_FILE; else $FLEETPROOF_JWKS as JSON, else a fresh key pair in a temporary directory)',
  },
  defect: DEFECT_FLAG,
  variant: VARIANT_FLAG,
  ...numberFlags(),
} satisfies Record<string, FlagSpec>;
