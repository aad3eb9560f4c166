// Phase `seed` (setup): every record of the dataset through POST /v1/batch,
// batches of one record kind sent `parallel` at a time, in dependency order.
// In a distributed run only the instance whose segment starts at 0 seeds;
// the others wait until the last record is readable.
import { bySize } from '../lib/batches.js';
import { seedDuration } from '../lib/metrics.js';
import { segmentBounds } from '../lib/plan.js';
import { bodyOf, expectResponse, pause, registryClient, send, sendAll } from '../lib/registry.js';
import { verify } from '../lib/verify.js';

const PHASE = 'seed';

/**
 * @param {import('../lib/plan.js').RunPlan} plan
 * @param {ReturnType<typeof import('../lib/dataset.js').scaleDataset>} data
 * @param {Record<string, number>} params
 */
export async function seedDataset(plan, data, params) {
  const client = registryClient(plan, PHASE);
  if (segmentBounds()[0] > 0) return waitForSeed(client, data);
  let sent = 0;
  let rejected = 0;
  // Every record is built and serialised before the clock starts: the seed time is the registry's, not the generator's.
  /** @type {import('../lib/registry.js').RegistryRequest[][]} */
  const waves = [];
  /** @type {import('../lib/registry.js').RegistryRequest[]} */
  let wave = [];
  let waveOp = '';
  for (const items of data.batches(params['batch_items'] || 1000)) {
    for (const chunk of bySize(items, params['max_batch_bytes'] || 4000000)) {
      const op = /** @type {{ op: string }} */ (chunk[0]).op;
      // Records of one kind are independent; the next kind may depend on them.
      if (wave.length > 0 && (op !== waveOp || wave.length >= (params['parallel'] || 1))) {
        waves.push(wave);
        wave = [];
      }
      waveOp = op;
      wave.push(client.batch(chunk));
      sent += chunk.length;
    }
  }
  if (wave.length > 0) waves.push(wave);
  // From the first write to the last acknowledged one.
  const started = Date.now();
  for (const w of waves) {
    for (const res of await sendAll(w)) {
      const body = expectResponse(res, ['200']) ? bodyOf(res) : null;
      for (const r of body ? body.results : [{ outcome: 'rejected', error: { code: `HTTP ${res.status}` } }]) {
        if (r.outcome === 'rejected' && rejected++ < 3) console.error(`seed item rejected: ${JSON.stringify(r.error)}`);
      }
    }
  }
  const elapsed = Date.now() - started;
  seedDuration.add(elapsed, { phase: PHASE });
  const ok = verify(PHASE, '01 seed: every record applied or unchanged', rejected === 0, `${rejected} of ${sent} rejected`);
  if (!ok) throw new Error(`seeding failed: ${rejected} of ${sent} records rejected`);
  return { seeded_records: sent, seed_ms: elapsed };
}

/**
 * @param {ReturnType<typeof registryClient>} client
 * @param {ReturnType<typeof import('../lib/dataset.js').scaleDataset>} data
 */
async function waitForSeed(client, data) {
  const deadline = Date.now() + 30 * 60 * 1000;
  while (Date.now() < deadline) {
    if ((await send(client.binding(data.lastBinding()))).status === 200) return { seeded_records: 0, seed_ms: 0 };
    await pause(1);
  }
  throw new Error('the instance seeding the dataset did not finish within 30 minutes');
}
