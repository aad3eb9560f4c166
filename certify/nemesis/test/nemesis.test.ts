// The schedule is bounded, heals every fault it injected (also when stopped
// mid-fault or when a fault fails), waits for readiness after each heal, and
// runs only the commands the user wrote, both halves of each pair.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { commandFaults, parseNemesisCommands } from '../command-faults.ts';
import { parseInterval } from '../interval.ts';
import { DEFAULT_SCHEDULE, startNemesis, type Fault } from '../nemesis.ts';

const quick = { ...DEFAULT_SCHEDULE, faultMs: 30, quietMs: 10, readyTimeoutMs: 2000 };

function recordingFault(events: string[], failInject = false): Fault {
  return {
    name: 'recorded',
    inject: async () => {
      events.push('inject');
      if (failInject) throw new Error('cannot break it');
    },
    heal: async () => void events.push('heal'),
  };
}

describe('the nemesis schedule', () => {
  let ready: Server;
  let url: string;
  before(async () => {
    ready = createServer((req, res) => res.writeHead(req.url === '/ready' ? 200 : 404).end());
    await new Promise<void>((resolve) => ready.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(ready.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => ready.close(() => resolve())));

  it('stops at its fault count, heals each fault and times each recovery', async () => {
    const events: string[] = [];
    const run = startNemesis([recordingFault(events)], { ...quick, maxFaults: 3 }, url, () => {});
    while (run.bands.length < 3 || run.bands[2]!.recovery_ms === null) await new Promise((r) => setTimeout(r, 10));
    const bands = await run.stop();
    assert.deepEqual(events, ['inject', 'heal', 'inject', 'heal', 'inject', 'heal']);
    assert.equal(bands.length, 3);
    for (const b of bands) assert.ok(b.recovery_ms !== null && b.end >= b.start);
  });

  it('counts its duration bound from when it is armed, not from the set-up before', async () => {
    const events: string[] = [];
    let arm = () => {};
    const armed = new Promise<void>((resolve) => (arm = resolve));
    // The first fault is due a 10 ms quiet period after arming, well inside the 1 s bound; a set-up longer
    // than the bound leaves a bound counted from the start no time for any fault.
    const run = startNemesis([recordingFault(events)], { ...quick, maxFaults: 1, maxDurationMs: 1000 }, url, () => {}, { armed });
    await new Promise((r) => setTimeout(r, 1500));
    arm();
    // Bounded: a schedule that never injects ends the wait after 10 s and fails below.
    for (let i = 0; i < 1000 && (run.bands.length < 1 || run.bands[0]!.recovery_ms === null); i++)
      await new Promise((r) => setTimeout(r, 10));
    const bands = await run.stop();
    assert.deepEqual(events, ['inject', 'heal']);
    assert.ok(bands[0]!.start >= 1500, 'bands are timed from the schedule start, as the proxy times its traffic');
  });

  it('heals a fault it is stopped in the middle of, and says so', async () => {
    const events: string[] = [];
    const lines: string[] = [];
    const run = startNemesis([recordingFault(events)], { ...quick, faultMs: 60_000 }, url, (l) => lines.push(l));
    while (!events.includes('inject')) await new Promise((r) => setTimeout(r, 5));
    await run.stop();
    assert.deepEqual(events, ['inject', 'heal']);
    assert.ok(lines.some((l) => /healed recorded/.test(l)));
    assert.ok(lines.some((l) => /nothing is left broken/.test(l)));
  });

  it('heals and reports a fault that could not be injected', async () => {
    const events: string[] = [];
    const run = startNemesis([recordingFault(events, true)], quick, url, () => {});
    while (!events.includes('heal')) await new Promise((r) => setTimeout(r, 5));
    await assert.rejects(run.stop(), /cannot break it/);
    assert.deepEqual(events, ['inject', 'heal']);
  });

  it('lets a seed choose which fault falls first, the same for the same seed', async () => {
    const orderOf = async (seed: number) => {
      const events: string[] = [];
      const named = ['a', 'b', 'c'].map((name) => ({ name, inject: async () => void events.push(name), heal: async () => {} }));
      const run = startNemesis(named, { ...quick, maxFaults: 3 }, url, () => {}, { seed });
      while (run.bands.length < 3 || run.bands[2]!.recovery_ms === null) await new Promise((r) => setTimeout(r, 10));
      await run.stop();
      return events.join('');
    };
    const orders = [];
    for (let seed = 1; seed <= 6; seed++) orders.push(await orderOf(seed));
    assert.equal(await orderOf(1), orders[0]);
    for (const o of orders) assert.ok(['abc', 'bca', 'cab'].includes(o), `round robin from the first: ${o}`);
    assert.ok(new Set(orders).size > 1, `seeds 1 to 6 all started with the same fault: ${orders.join(' ')}`);
  });

  it('says a fault is in effect from its injection until the registry is ready after its heal', async () => {
    let inject = () => {};
    const injected = new Promise<void>((resolve) => (inject = resolve));
    const fault: Fault = { name: 'held', inject: async () => inject(), heal: async () => {} };
    const run = startNemesis([fault], { ...quick, faultMs: 60_000, maxFaults: 1 }, url, () => {});
    const before = performance.now();
    await injected;
    assert.equal(run.outage.overlaps(performance.now()), true);
    let over: boolean | null = null;
    const waiting = run.outage.over().then((o) => (over = o));
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(over, null, 'not over while the fault lasts');
    await run.stop();
    assert.equal(await waiting, true);
    assert.notEqual(run.bands[0]!.recovery_ms, null, 'over once the registry answered /ready');
    assert.equal(run.outage.overlaps(before), true, 'a call sent during the fault met it');
    assert.equal(run.outage.overlaps(performance.now()), false, 'a call sent after it did not');
    assert.equal(await run.outage.over(), true);
  });

  it('reads FAULT/QUIET intervals and refuses nonsense', () => {
    assert.deepEqual([parseInterval('2s/500ms').faultMs, parseInterval('2s/500ms').quietMs], [2000, 500]);
    assert.equal(parseInterval('1m').quietMs, 60_000);
    assert.throws(() => parseInterval('soon'));
    assert.throws(() => parseInterval('10ms'));
  });
});

describe('command faults', () => {
  let dir: string;
  before(async () => (dir = await mkdtemp(join(tmpdir(), 'fleetproof-nemesis-'))));
  after(() => rm(dir, { recursive: true, force: true }));

  it('refuses a fault without its heal, and unknown names', () => {
    assert.throws(() => parseNemesisCommands(['storage-down=true']), /go together/);
    assert.throws(() => parseNemesisCommands(['reboot=true']), /takes/);
    assert.throws(() => parseNemesisCommands(['storage-down=']), /needs a command/);
    assert.throws(() => parseNemesisCommands([]), /needs --nemesis-cmd/);
  });

  it('runs exactly the commands written, in fault and heal order', async () => {
    const file = join(dir, 'log');
    const faults = commandFaults(parseNemesisCommands([`storage-down=echo down >> ${file}`, `storage-up=echo up >> ${file}`]), () => {});
    assert.deepEqual(
      faults.map((f) => f.name),
      ['storage'],
    );
    await faults[0]!.inject();
    await faults[0]!.heal();
    assert.equal(await readFile(file, 'utf8'), 'down\nup\n');
  });

  it('reports a command that fails, with its output', async () => {
    const [fault] = commandFaults(parseNemesisCommands(['process-kill=echo no such process >&2; exit 3', 'process-start=true']), () => {});
    await assert.rejects(fault!.inject(), /exit 3: no such process/);
  });
});
