// A property run against a registry over HTTP has one run id: result.json
// carries it, and every record its runs create lives under a namespace that
// starts with it, so a vendor can tell from any record which run made it.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { RUN_ID_PATTERN } from '../../client/run-id.ts';
import { runPropertiesCommand } from '../runner/properties-command.ts';
import type { ResultDocument } from '../runner/result-document.ts';
import { httpTarget } from '../targets/http-target.ts';
import type { Target } from '../targets/target.ts';
import { startReferenceServer, type ReferenceServer } from './reference-server.ts';

describe('the run id of a property run', () => {
  let dir: string;
  let server: ReferenceServer;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fleetproof-run-id-'));
    server = await startReferenceServer();
  });
  after(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('names result.json and the namespace of every run on the registry', async (t) => {
    t.mock.method(console, 'log', () => {});
    const key = join(dir, 'key.jwk.json');
    await writeFile(key, JSON.stringify(server.key.jwk));
    const http = { url: server.url, key, requestTimeoutMs: 5000 };
    const namespaces: string[] = [];
    const openTarget = async (runId: string): Promise<Target> => {
      const target = await httpTarget({ ...http, runId });
      return { ...target, openRun: async () => target.openRun().then((run) => (namespaces.push(run.u.ns), run)) };
    };
    const out = join(dir, 'out');
    const code = await runPropertiesCommand({
      openTarget,
      kind: 'http',
      http,
      runs: 2,
      seed: '5',
      path: undefined,
      suites: ['stale-cursor'],
      out,
      argv: [],
    });
    const doc = JSON.parse(await readFile(join(out, 'result.json'), 'utf8')) as ResultDocument;
    assert.equal(code, 0);
    assert.match(doc.run_id, RUN_ID_PATTERN);
    assert.ok(namespaces.length > 0, 'the suite opened runs');
    for (const ns of namespaces) assert.ok(ns.startsWith(`${doc.run_id}.`), `namespace ${ns}`);
    assert.equal(new Set(namespaces).size, namespaces.length, 'each run has its own namespace');
  });
});
