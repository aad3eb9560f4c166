// The builtin faults against the reference on PostgreSQL: its client
// backends terminated, its server stopped and started on the same data, and
// the registry process itself SIGKILLed and started again, between the
// proxy's lost answers. The reference passes the stage, and
// every fault was healed and followed by a ready registry.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { postgresFaults } from '../../../cli/builtin-faults.ts';
import { startReferenceProcess } from '../../../cli/reference-process.ts';
import { startEmbeddedPostgres } from '../../../reference/store/postgres/embedded-server.ts';
import type { FaultsDocument } from '../../../reports/schemas/faults-result.ts';
import { DEFAULT_SCHEDULE } from '../../nemesis/nemesis.ts';
import { faultsStage } from '../faults-stage.ts';

const root = await mkdtemp(join(tmpdir(), 'fleetproof-faults-pg-'));
after(() => rm(root, { recursive: true, force: true }));

describe('the faults stage on PostgreSQL', () => {
  it('passes the reference through terminated backends, a restarted server, a killed registry and lost answers', async () => {
    const server = await startEmbeddedPostgres({ ephemeral: true });
    try {
      const reference = await startReferenceProcess(server.url);
      try {
        const builtin = [
          ...postgresFaults(
            { url: server.url, version: '', stop: async () => {}, restart: { halt: () => server.halt(), resume: () => server.resume() } },
            () => {},
          ),
          reference.crash,
        ];
        const output = await faultsStage(
          {
            out: join(root, 'pg'),
            runId: 'fp20261201t000000faults01',
            targetUrl: reference.url,
            key: reference.signingKey,
            keyPath: reference.signingKeyPath,
            profile: 'smoke',
            targetFlags: '--target T --key K',
            log: () => {},
          },
          {
            nemesis: {
              kinds: ['proxy', 'builtin'],
              builtin,
              schedule: { ...DEFAULT_SCHEDULE, faultMs: 1000, quietMs: 500, readyTimeoutMs: 60_000 },
              seed: 3,
            },
            runs: 2,
            minFaults: 4,
            maxRounds: 8,
          },
        );
        assert.equal(output.record.status, 'passed', [...output.record.reasons, ...output.failures.map((f) => f.message)].join('; '));
        const doc = JSON.parse(await readFile(join(root, 'pg', 'faults', 'result.json'), 'utf8')) as FaultsDocument;
        assert.deepEqual(Object.keys(doc.figures.by_fault).sort(), ['pg-restart', 'pg-terminate', 'process-kill', 'proxy']);
        assert.ok(
          doc.bands.every((b) => b.recovery_ms !== null && b.error === null),
          JSON.stringify(doc.bands),
        );
      } finally {
        await reference.close();
      }
    } finally {
      await server.stop();
    }
  });
});
