// The reference server in a process of its own, for what a server sharing
// the test's event loop cannot show: a client still writing while the server
// answers and closes, the race that loses refusals to resets. Run as a
// script, it serves a memory store with the given JWK set and body limit and
// prints `listening on URL`; imported, startChildRegistry spawns it.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { generateSigningKeys, signingKeyFromJwk, type SigningKey } from '../../../contract/tokens.ts';
import { MemoryStore } from '../../store/memory/memory-store.ts';
import { createRegistryServer } from '../server.ts';

const SCRIPT = fileURLToPath(import.meta.url);
const START_TIMEOUT_MS = 60_000;

export interface ChildRegistry {
  url: string;
  key: SigningKey;
  close(): Promise<void>;
}

export async function startChildRegistry(maxBodyBytes: number): Promise<ChildRegistry> {
  const { privateJwk, jwks } = await generateSigningKeys();
  // Compiled, this file is JavaScript; from the sources it needs tsx, as the test running it does.
  const loader = SCRIPT.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...loader, SCRIPT, JSON.stringify(jwks), String(maxBodyBytes)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    child.kill('SIGKILL');
    await exited;
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the child registry did not start')), START_TIMEOUT_MS);
      void exited.then(() => reject(new Error('the child registry exited before listening')));
      createInterface({ input: child.stdout! }).once('line', (line) => {
        clearTimeout(timer);
        resolve(line.replace('listening on ', ''));
      });
    });
    return { url, key: await signingKeyFromJwk(privateJwk), close };
  } catch (err) {
    await close();
    throw err;
  }
}

if (process.argv[1] === SCRIPT) {
  const [jwks, maxBodyBytes] = process.argv.slice(2);
  const server = createRegistryServer({
    store: new MemoryStore({}),
    jwks: JSON.parse(jwks!),
    limits: { max_body_bytes: Number(maxBodyBytes) },
  });
  console.log(`listening on ${await server.listen(0, '127.0.0.1')}`);
}
