// The reference registry served in-process on a loopback port with a fresh
// signing key: what `fleetproof certify` runs when no --target is given, and
// what every test that needs a registry over HTTP starts. The key pair is
// written to a temporary directory (removed on close) so that anything
// expecting key files — the CLI commands, k6 token files — can use it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JSONWebKeySet } from 'jose';
import type { RegistryLimits } from '../contract/records.ts';
import { loadJwks, loadSigningKey, writeSigningKeys, type SigningKey } from '../contract/tokens.ts';
import { assembledServer, assembledStore, PLAIN_ASSEMBLY, type ReferenceAssembly } from './assembly.ts';
import { openReferenceStore, type StoreKind } from './store/open-store.ts';
import type { RegistryStore } from './store/registry-store.ts';
import type { Variant } from './variant/draw-variant.ts';
import { variantOptions } from './variant/variant-options.ts';
import type { ConnectionLimits } from './http/connection-limits.ts';

export interface EmbeddedReferenceOptions {
  /** A store to serve, or the kind of reference store to open (and close with the server). */
  store?: RegistryStore | StoreKind;
  pgUrl?: string;
  /** Decorators around the store and the server (assembly.ts); a store passed in is wrapped too, without race hooks. */
  assembly?: ReferenceAssembly;
  /**
   * Limits to declare and enforce instead of the defaults, each within the
   * range the contract allows (conformance/README.md): the store takes every
   * limit but the body limit, which the server enforces. A store passed in
   * keeps its own limits.
   */
  limits?: Partial<RegistryLimits>;
  /**
   * A variant's seed: every limit and implementation-defined choice drawn
   * from its legal range (reference/variant/). Limits given beside it win,
   * and an assembly composes with it. A store passed in keeps its own.
   */
  variant?: number;
  host?: string;
  port?: number;
  /** The HTTP server's timeouts and head limits ([wire-head-limits]); the reference's own where left out. */
  connections?: Partial<ConnectionLimits>;
  /** Log server faults (INTERNAL answers) to stderr; off keeps test output clean. */
  logErrors?: boolean;
}

export interface EmbeddedReference {
  readonly url: string;
  readonly store: RegistryStore;
  readonly jwks: JSONWebKeySet;
  readonly signingKey: SigningKey;
  readonly signingKeyPath: string;
  readonly jwksPath: string;
  /** The variant served, when one was asked for. */
  readonly variant: Variant | null;
  close(): Promise<void>;
}

export async function startEmbeddedReference(options: EmbeddedReferenceOptions = {}): Promise<EmbeddedReference> {
  const assembly = options.assembly ?? PLAIN_ASSEMBLY;
  const kind = options.store ?? 'memory';
  const split = variantOptions(options.variant, options.limits);
  const opened =
    typeof kind === 'string'
      ? await openReferenceStore(kind, {
          ...split.store,
          ...(assembly.raceHooks ? { raceHooks: assembly.raceHooks } : {}),
          ...(options.pgUrl ? { pgUrl: options.pgUrl } : {}),
        })
      : kind;
  const store = assembledStore(assembly, opened);
  const dir = await mkdtemp(join(tmpdir(), 'fleetproof-reference-'));
  try {
    const files = await writeSigningKeys(dir);
    const jwks = await loadJwks(files.jwksPath);
    const signingKey = await loadSigningKey(files.signingKeyPath);
    const server = assembledServer(
      assembly,
      {
        store,
        jwks,
        ...split.server,
        ...(options.connections ? { connections: options.connections } : {}),
        ...(options.logErrors ? {} : { log: () => {} }),
      },
      { signingKey },
    );
    const url = await server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
    return {
      url,
      store,
      jwks,
      signingKey,
      signingKeyPath: files.signingKeyPath,
      jwksPath: files.jwksPath,
      variant: split.variant,
      async close() {
        await server.close();
        await store.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await store.close();
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}
