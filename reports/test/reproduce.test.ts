// The reproduction a failed case prints: its curl command, run by a real
// shell, sends the recorded request (method, path, headers, body, the token
// from $FLEETPROOF_TOKEN) to the target; the token command names the
// caller's roles and tenant; 185 failures of one cause are one group.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { groupFailures } from '../conformance/failure-groups.ts';
import { curlCommand, reproduction, shellQuote } from '../conformance/reproduce.ts';
import { sampleConformance } from './sample-documents.ts';

const run = promisify(execFile);

describe('reproduction', () => {
  it('replays the recorded exchange with the token from the environment', async (t) => {
    if (
      await run('sh', ['-c', 'command -v curl']).then(
        () => false,
        () => true,
      )
    )
      return t.skip('no curl on PATH');
    const seen: Array<{ req: IncomingMessage; body: string }> = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ req, body });
        res.end('{}');
      });
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const port = (server.address() as { port: number }).port;
      const c = sampleConformance().cases.find((x) => x.status === 'fail')!;
      const e = {
        ...c.exchange!,
        request: { ...c.exchange!.request, url: c.exchange!.request.url.replace(/^http:\/\/[^/]+/, `http://127.0.0.1:${port}`) },
      };
      await run('sh', ['-c', curlCommand(e)], { env: { ...process.env, FLEETPROOF_TOKEN: 'tok.en.value' } });
      assert.equal(seen.length, 1);
      const { req, body } = seen[0]!;
      assert.equal(req.method, 'POST');
      assert.equal(`http://127.0.0.1:${port}${req.url}`, e.request.url);
      assert.equal(req.headers.authorization, 'Bearer tok.en.value');
      assert.equal(req.headers['content-type'], 'application/json');
      assert.equal(body, e.request.body!.text, 'the body arrives byte for byte, quotes included');
    } finally {
      await new Promise((ok) => server.close(ok));
    }
  });

  it('names the rerun and the token of the right caller', () => {
    const r = sampleConformance();
    const c = r.cases.find((x) => x.status === 'fail')!;
    const text = reproduction(r, c);
    assert.match(
      text,
      new RegExp(`npx fleetproof conform --target ${r.target.url} --key /home/vendor/keys/signing-key.jwk.json --case ${c.id}`),
    );
    assert.match(text, /export FLEETPROOF_TOKEN=\$\(npx fleetproof token --key \S+ --roles registry:dispatch --tenant tenant-fp\w+-001\)/);
    assert.equal(shellQuote(`it's`), `'it'\\''s'`);
  });

  it("names the vendor's token command, never its text, when the run had no key", () => {
    const base = sampleConformance();
    const r = { ...base, config: { ...base.config, key: null, credentials: { token_cmd: true, headers: [] } } };
    const c = r.cases.find((x) => x.status === 'fail')!;
    const text = reproduction(r, c);
    assert.match(
      text,
      new RegExp(
        `npx fleetproof conform --target ${r.target.url} --token-cmd 'YOUR TOKEN COMMAND \\{tenant\\} \\{roles\\}' --case ${c.id}`,
      ),
    );
    assert.match(
      text,
      /^# export FLEETPROOF_TOKEN=<what your --token-cmd prints for \{tenant\}=tenant-fp\w+-001 \{roles\}=registry:dispatch>$/m,
    );
    assert.doesNotMatch(text, /fleetproof token --key/);
  });

  it('groups failures by cause, largest first', () => {
    const groups = groupFailures(sampleConformance().cases);
    assert.deepEqual(
      groups.map((g) => [g.cause, g.cases.length]),
      [
        ['fail: settleRoute → 200 (breaks settle-fence)', 185],
        ['fail: getFleetStatus → 500 STORAGE_UNAVAILABLE (breaks auth-bearer)', 1],
      ],
    );
  });
});
