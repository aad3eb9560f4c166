// What one cross-thread wake-up costs on this machine: two threads hand a
// turn back and forth through Atomics.wait and Atomics.notify, each sleeping
// until the other wakes it. Every Node runner request pays at least one such
// round trip (the VU thread posts the request and sleeps; the main thread,
// woken, answers and wakes it), so this figure is the floor under the Node
// runner's CPU per request on the machine the bench runs on: a few
// microseconds on bare metal, many times that inside a virtual machine,
// where each wake-up of a sleeping CPU traps to the hypervisor.
import { Worker } from 'node:worker_threads';

export interface WakeRoundTrip {
  /** Wall time of one round trip, in microseconds. */
  wallUs: number;
  /** CPU time of one round trip, both threads together, in microseconds. */
  cpuUs: number;
}

const PARTNER = `
const { workerData } = require('node:worker_threads');
const cells = new Int32Array(workerData.buffer);
for (let i = 1; i <= workerData.rounds; i++) {
  while (Atomics.load(cells, 0) !== i) Atomics.wait(cells, 0, i - 1);
  Atomics.store(cells, 1, i);
  Atomics.notify(cells, 1);
}
`;

export async function measureWakeRoundTrip(rounds = 20_000): Promise<WakeRoundTrip> {
  const buffer = new SharedArrayBuffer(8);
  const cells = new Int32Array(buffer);
  const partner = new Worker(PARTNER, { eval: true, workerData: { buffer, rounds } });
  try {
    await new Promise((resolve) => partner.once('online', resolve));
    // process.cpuUsage() counts every thread of the process: the partner's CPU is in it.
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let i = 1; i <= rounds; i++) {
      Atomics.store(cells, 0, i);
      Atomics.notify(cells, 0);
      while (Atomics.load(cells, 1) !== i) Atomics.wait(cells, 1, i - 1);
    }
    const wallMs = performance.now() - started;
    const used = process.cpuUsage(cpu);
    return { wallUs: (wallMs * 1000) / rounds, cpuUs: (used.user + used.system) / rounds };
  } finally {
    await partner.terminate();
  }
}
