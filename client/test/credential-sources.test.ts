// The credential sources a vendor brings: a token command run without a
// shell, its JWTs reused until shortly before they expire, and static headers
// on every request that speaks as a caller (never on an anonymous one).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { commandFor, credentialsOf, parseHeader, splitCommand, tokenCommandCredentials } from '../credential-sources.ts';

const jwt = (expS: number) =>
  `${Buffer.from('{"alg":"EdDSA"}').toString('base64url')}.${Buffer.from(JSON.stringify({ exp: expS })).toString('base64url')}.sig`;

describe('credential sources', () => {
  it('splits a template as a shell would, and substitutes each placeholder inside one argument', () => {
    const words = splitCommand(`mint --tenant={tenant} "--scope {roles}" 'a b' c\\ d`);
    assert.deepEqual(words, ['mint', '--tenant={tenant}', '--scope {roles}', 'a b', 'c d']);
    assert.deepEqual(commandFor(words, { roles: ['registry:reader', 'registry:admin'], tenant: 't-1' }), [
      'mint',
      '--tenant=t-1',
      '--scope registry:admin,registry:reader',
      'a b',
      'c d',
    ]);
    assert.throws(() => splitCommand(`mint 'open`), /unclosed ' quote/);
  });

  it('runs the command without a shell: a value full of shell syntax arrives as one argument', async () => {
    const printArgs = `${JSON.stringify(process.execPath)} -e "process.stdout.write(process.argv.slice(1).join('|'))" {tenant} {roles}`;
    const credentials = tokenCommandCredentials(printArgs);
    const hostile = 't;touch$(x)`y`';
    const auth = await credentials.authorize({ roles: ['registry:dispatch'], tenant: hostile });
    assert.equal(auth.headers['authorization'], `Bearer ${hostile}|registry:dispatch`);
    assert.deepEqual(auth.caller, { roles: ['registry:dispatch'], tenant: hostile });
  });

  it('reuses a JWT until 30 s before its exp, per tenant and role set, and runs the command again after', async () => {
    let nowMs = 1_000_000;
    const calls: string[][] = [];
    const credentials = tokenCommandCredentials('mint {tenant} {roles}', {
      now: () => nowMs,
      run: async (argv) => (calls.push(argv), jwt(nowMs / 1000 + 120)),
    });
    const reader = { roles: ['registry:reader'] };
    const first = await credentials.authorize(reader);
    assert.equal((await credentials.authorize(reader)).headers['authorization'], first.headers['authorization']);
    await credentials.authorize({ roles: ['registry:reader'], tenant: 't1' });
    assert.equal(calls.length, 2, 'one command per tenant and role set');
    nowMs += 91_000;
    await credentials.authorize(reader);
    assert.equal(calls.length, 3, 'within 30 s of exp the token is asked for again');
  });

  it('credentials built again from the same command share its tokens: a run of several stages asks once per caller', async () => {
    const calls: string[][] = [];
    const run = async (argv: string[]) => (calls.push(argv), jwt(Date.now() / 1000 + 3600));
    const conform = tokenCommandCredentials('mint {tenant} {roles}', { run });
    const properties = tokenCommandCredentials('mint {tenant} {roles}', { run });
    const reader = { roles: ['registry:reader'], tenant: 't1' };
    assert.equal((await properties.authorize(reader)).headers['authorization'], (await conform.authorize(reader)).headers['authorization']);
    assert.equal(calls.length, 1);
    await tokenCommandCredentials('other {tenant}', { run }).authorize(reader);
    assert.equal(calls.length, 2, 'another command is another source');
  });

  it('refuses output that is not one token, and does not remember a failure', async () => {
    let n = 0;
    const credentials = tokenCommandCredentials('mint', { run: async () => (n++ === 0 ? 'two words' : 'opaque-token') });
    await assert.rejects(credentials.authorize({ roles: [] }), /printed more than one word/);
    assert.equal((await credentials.authorize({ roles: [] })).headers['authorization'], 'Bearer opaque-token');
  });

  it('static headers go on every request that speaks as a caller, never on an anonymous one', async () => {
    const credentials = credentialsOf({ headers: ['X-Api-Key: s3cr:et'] }, null);
    assert.deepEqual((await credentials.authorize({ roles: ['registry:reader'] })).headers, { 'x-api-key': 's3cr:et' });
    assert.deepEqual((await credentials.authorize(null)).headers, {});
    const bearer = credentialsOf({ headers: ['Authorization: Bearer fixed'] }, null);
    assert.deepEqual((await bearer.authorize({ roles: ['registry:admin'] })).headers, { authorization: 'Bearer fixed' });
    assert.throws(() => parseHeader('no colon here'), /is not "Name: value"/);
  });
});
