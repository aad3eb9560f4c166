// bench:http-stall — a 16 MB request body that nests too deep must not stall
// the reference server (`fleetproof serve`, memory store, its own process).
// For each shape of body it uploads the body on one connection as fast as
// the socket takes it, while other connections send GET /health one after
// another, and prints:
//   - when the 400 arrived, counted from the moment the body's last byte was
//     written (negative: the refusal came while the body was still going out);
//   - /health latency (p50, p99, max) over the checks sent during the
//     uploads, next to the same figures with no upload, in the same run.
// Shapes: nested from its first bytes (POST /v1/routes, POST /v1/batch), and
// nested only in its last bytes, after 16 MB of a string (POST /v1/routes):
// that refusal can come only at the end, so its delay is the server's own.
// Targets (on a quiet machine): the 400 within 50 ms of the last byte,
// /health p99 under 50 ms over at least 100 checks during the uploads.
// Knobs: BENCH_UPLOADS (5 per shape), BENCH_HEALTH_CONNECTIONS (2),
// BENCH_BODY_BYTES (16000000).
import { connect } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { loadSigningKey, writeSigningKeys } from '../../contract/tokens.ts';
import { mintToken } from '../../client/token-minter.ts';
import { ROOT, startListening } from './listening-child.ts';
import { fmt, median, percentile } from './stats.ts';

const UPLOADS = Number(process.env['BENCH_UPLOADS'] ?? 5);
const HEALTH_CONNECTIONS = Number(process.env['BENCH_HEALTH_CONNECTIONS'] ?? 2);
const BODY_BYTES = Number(process.env['BENCH_BODY_BYTES'] ?? 16_000_000);
const PIECE_BYTES = 64 * 1024;

interface Shape {
  name: string;
  path: string;
  roles: string[];
  body: Buffer;
}

function nestedThroughout(): Buffer {
  return Buffer.concat([Buffer.alloc(BODY_BYTES / 2, '['), Buffer.alloc(BODY_BYTES / 2, ']')]);
}

function nestedAtTheEnd(): Buffer {
  const head = '{"action_id":"act-stall","capability_id":"cap.stall","padding":"';
  const tail = `","deep":${'['.repeat(64)}${']'.repeat(64)}}`;
  return Buffer.from(head + 'a'.repeat(BODY_BYTES - head.length - tail.length) + tail);
}

interface Upload {
  /** performance.now() when the last byte was handed to the kernel. */
  lastByteAt: number;
  answeredAt: number;
  status: number;
}

/** Sends one request as raw bytes, as fast as the socket takes them; resolves with its answer's status and times. */
function upload(url: string, shape: Shape, token: string): Promise<Upload> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let lastByteAt = 0;
    let answeredAt = 0;
    let answer = '';
    const settle = () => {
      if (lastByteAt === 0 || answeredAt === 0) return;
      socket.destroy();
      resolve({ lastByteAt, answeredAt, status: Number(answer.slice(9, 12)) });
    };
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      const headEnd = answer.indexOf('\r\n\r\n');
      const length = /content-length: *(\d+)/i.exec(answer)?.[1];
      if (headEnd !== -1 && length !== undefined && answer.length >= headEnd + 4 + Number(length) && answeredAt === 0) {
        answeredAt = performance.now();
        settle();
      }
    });
    socket.on('connect', async () => {
      socket.write(
        `POST ${shape.path} HTTP/1.1\r\nhost: bench\r\nauthorization: Bearer ${token}\r\ncontent-type: application/json\r\n` +
          `content-length: ${shape.body.length}\r\n\r\n`,
      );
      for (let at = 0; at < shape.body.length; at += PIECE_BYTES) {
        const last = at + PIECE_BYTES >= shape.body.length;
        const more = socket.write(
          shape.body.subarray(at, at + PIECE_BYTES),
          last ? () => ((lastByteAt = performance.now()), settle()) : undefined,
        );
        if (!more) await new Promise((r) => socket.once('drain', r));
      }
    });
  });
}

/** GET /health on each connection, one after another, until stopped; every latency with its send time. */
function healthChecks(pool: Pool): { stop: () => Promise<Array<{ sentAt: number; ms: number }>> } {
  let running = true;
  const samples: Array<{ sentAt: number; ms: number }> = [];
  const workers = Array.from({ length: HEALTH_CONNECTIONS }, async () => {
    while (running) {
      const sentAt = performance.now();
      const res = await pool.request({ method: 'GET', path: '/health' });
      await res.body.text();
      if (res.statusCode !== 200) throw new Error(`/health answered ${res.statusCode}`);
      samples.push({ sentAt, ms: performance.now() - sentAt });
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(workers);
      return samples;
    },
  };
}

function latencies(ms: number[]): string {
  return `p50 ${fmt(median(ms), 2)} ms, p99 ${fmt(percentile(ms, 99), 2)} ms, max ${fmt(Math.max(...ms), 2)} ms over ${ms.length} checks`;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'fleetproof-bench-'));
  const files = await writeSigningKeys(dir);
  const key = await loadSigningKey(files.signingKeyPath);
  const registry = await startListening([
    join(ROOT, 'bin/fleetproof.js'),
    'serve',
    '--store',
    'memory',
    '--port',
    '0',
    '--jwks',
    files.jwksPath,
  ]);
  const pool = new Pool(registry.url, { connections: HEALTH_CONNECTIONS });
  try {
    const shapes: Shape[] = [
      { name: 'POST /v1/routes, nested throughout', path: '/v1/routes', roles: ['registry:dispatch'], body: nestedThroughout() },
      { name: 'POST /v1/batch, nested throughout', path: '/v1/batch', roles: ['registry:admin'], body: nestedThroughout() },
      { name: 'POST /v1/routes, nested in its last bytes', path: '/v1/routes', roles: ['registry:dispatch'], body: nestedAtTheEnd() },
    ];
    console.log(
      `node ${process.version}, ${fmt(BODY_BYTES)}-byte bodies, ${UPLOADS} uploads per shape, ${HEALTH_CONNECTIONS} health connections`,
    );
    const quiet = healthChecks(pool);
    await new Promise((r) => setTimeout(r, 1000));
    console.log(`/health without an upload: ${latencies((await quiet.stop()).map((s) => s.ms))}`);
    for (const shape of shapes) {
      const token = await mintToken({ key, roles: shape.roles, tenant: 'tenant-stall' });
      const delays: number[] = [];
      const during: number[] = [];
      for (let i = 0; i < UPLOADS; i++) {
        const checks = healthChecks(pool);
        const started = performance.now();
        const u = await upload(registry.url, shape, token);
        const samples = await checks.stop();
        if (u.status !== 400) throw new Error(`${shape.name}: answered ${u.status}, not 400`);
        delays.push(u.answeredAt - u.lastByteAt);
        const ended = Math.max(u.lastByteAt, u.answeredAt);
        for (const s of samples) if (s.sentAt >= started && s.sentAt <= ended) during.push(s.ms);
      }
      console.log(`${shape.name}:`);
      console.log(`  400 after the last byte: median ${fmt(median(delays), 1)} ms, max ${fmt(Math.max(...delays), 1)} ms (target <= 50)`);
      console.log(`  /health during the uploads: ${latencies(during)} (target p99 < 50 ms, >= 100 checks)`);
    }
  } finally {
    await pool.close();
    registry.child.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
