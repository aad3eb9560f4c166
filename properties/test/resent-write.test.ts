// A PUT the transport sent again, after its kept-alive connection closed
// under the first attempt, that answers "unchanged" is indeterminate to the
// property suites: the first attempt may have applied it (a proxy that lost
// its answer, say), so whether the registry's outcome was "applied" or
// "unchanged" is unknown and the state read back decides. Sent once, the
// same answer is the registry's outcome.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { HttpTransport } from '../../client/http-transport.ts';
import { jsonAnswer, loopbackTarget, writeAnswer, type Handler } from '../../client/test/loopback-target.ts';
import { IndeterminateOutcome } from '../check/violations.ts';
import { callOperation } from '../targets/http/http-client.ts';

const opened: Array<{ close(): Promise<void> }> = [];
after(async () => {
  for (const o of opened.reverse()) await o.close();
});

const unchanged = jsonAnswer(200, { outcome: 'unchanged', catalog_revision: 3, record: { id: 'ctype_a' } });

/** Answers a connection's first request; drops the connection under its second, answer lost. */
const dropsSecondRequest: Handler = (req, socket) => (req.earlier === 0 ? writeAnswer(socket, unchanged) : void socket.destroy());

async function transportTo(handler: Handler): Promise<HttpTransport> {
  const target = await loopbackTarget(handler);
  opened.push(target);
  const transport = new HttpTransport({ baseUrl: target.url, timeoutMs: 2000, connections: 1 });
  opened.push(transport);
  return transport;
}

const put = { params: { type_id: 'ctype_a' }, body: { id: 'ctype_a' } as never, as: null };

describe('a resent PUT answered "unchanged"', () => {
  it('is indeterminate, and may still be acting for as long as a timeout', async () => {
    const transport = await transportTo(dropsSecondRequest);
    await transport.send({ method: 'GET', path: '/health' });
    const err = await callOperation(transport, 2000, 'putConnectorType', put).then(
      () => assert.fail('expected an indeterminate outcome'),
      (e: unknown) => e,
    );
    assert.ok(IndeterminateOutcome.is(err), String(err));
    assert.match(err.message, /PUT \/v1\/connector-types\/ctype_a answered "unchanged" to a second attempt/);
    assert.equal(err.mayStillActMs, 2000);
    assert.equal(err.read, false);
  });

  it("sent once, is the registry's outcome", async () => {
    const transport = await transportTo((_req, socket) => writeAnswer(socket, unchanged));
    await transport.send({ method: 'GET', path: '/health' });
    const answer = (await callOperation(transport, 2000, 'putConnectorType', put)) as { outcome: string };
    assert.equal(answer.outcome, 'unchanged');
  });
});
