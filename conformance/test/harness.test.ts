// The harness's small parts: configuration precedence and validation,
// run-scoped ids that fit every id pattern of openapi.yaml, and expectations
// that only ever throw the branded ConformanceFailure.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { componentValidator } from '../../contract/schemas.ts';
import { generateSigningKeys, signingKeyFromJwk } from '../../contract/tokens.ts';
import { ServerClock } from '../harness/clock.ts';
import { expectEqual, expectError, expectIdentical, fail } from '../harness/expect.ts';
import { ConformanceFailure, HarnessError } from '../harness/failure.ts';
import { newRunId, RUN_ID_PATTERN } from '../../client/run-id.ts';
import { caseTag, Ids } from '../harness/ids.ts';
import { expectExactEffect, expectRevisionKept } from '../harness/observe.ts';
import { isPrometheusSample } from '../harness/prometheus.ts';
import { HarnessTokens } from '../harness/tokens.ts';
import type { CaseContext } from '../harness/context.ts';
import { ConfigError, redactConfig, resolveConfig } from '../runner/config.ts';

describe('configuration', () => {
  it('takes the earlier source over the later, and fills defaults', () => {
    const config = resolveConfig(
      { categories: ['batch'] },
      { target: 'http://env.invalid/', categories: 'routing, pinned', concurrency: '3' },
      { target: 'http://file.invalid', keyFile: 'file.jwk', categories: ['wire'], timeoutMs: 9000, audience: 'from-file' },
    );
    assert.deepEqual(
      {
        target: config.target,
        key: config.keyFile,
        categories: config.categories,
        concurrency: config.concurrency,
        timeout: config.timeoutMs,
        audience: config.audience,
        features: config.features,
      },
      {
        target: 'http://env.invalid',
        key: 'file.jwk',
        categories: ['batch'],
        concurrency: 3,
        timeout: 9000,
        audience: 'from-file',
        features: null,
      },
    );
    assert.deepEqual(resolveConfig({ target: 'http://x.invalid', keyFile: 'k' }).concurrency, 8);
  });

  it('refuses what it cannot use, naming the problem', () => {
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ keyFile: 'k' }, /no target/],
      [{ target: 'ftp://x.invalid', keyFile: 'k' }, /http or https/],
      [{ target: 'http://x.invalid', keyFile: 'k', categories: 'nowhere' }, /unknown category nowhere/],
      [{ target: 'http://x.invalid', keyFile: 'k', features: 'teleport' }, /unknown feature teleport/],
      [{ target: 'http://x.invalid', keyFile: 'k', concurrency: '0' }, /concurrency/],
      [{ target: 'http://x.invalid', keyFile: 'k', timeoutMs: '1.5' }, /timeout-ms/],
    ];
    for (const [input, message] of bad)
      assert.throws(
        () => resolveConfig(input),
        (err) => err instanceof ConfigError && message.test(err.message),
      );
  });

  it('redacts credentials from the reported configuration', () => {
    const shown = redactConfig(resolveConfig({ target: 'https://user:secret@registry.invalid', keyFile: '/keys/private.jwk' }), 'kid-1');
    assert.equal(shown['target'], 'https://redacted:redacted@registry.invalid');
    assert.deepEqual(shown['key'], { file: '/keys/private.jwk', kid: 'kid-1', private_key: '[redacted]' });
  });
});

describe('run-scoped ids', () => {
  it('fit every id pattern of openapi.yaml and embed the run id', () => {
    const runId = newRunId(new Date('2026-11-30T12:34:56.789Z'));
    assert.match(runId, /^fp20261130t123456[0-9a-f]{8}$/);
    assert.match(runId, RUN_ID_PATTERN);
    const ids = new Ids(runId, 'settlement/an-unusually-long-behaviour-name-that-goes-on-and-on');
    const checks: Array<[string, string]> = [
      ['TypeId', ids.type()],
      ['VersionId', ids.version()],
      ['InstanceId', ids.instance()],
      ['ReplicaId', ids.replica('named.one')],
      ['TenantId', ids.tenant()],
      ['CapabilityId', ids.capability()],
      ['ActionId', ids.action()],
      ['PolicyRef', ids.policy()],
    ];
    for (const [schema, id] of checks) {
      assert.ok(componentValidator(schema)(id), `${schema} ${id}`);
      assert.ok(id.includes(runId), `${id} embeds the run id`);
    }
    assert.notEqual(ids.action(), ids.action());
    assert.throws(() => ids.type('has space'));
  });

  it('tag cases distinctly even when their names share a prefix', () => {
    assert.notEqual(
      caseTag('routing/a-very-long-name-shared-by-two-cases-one'),
      caseTag('routing/a-very-long-name-shared-by-two-cases-two'),
    );
  });
});

describe('expectations', () => {
  it('throw only branded ConformanceFailures, naming what differs', () => {
    assert.throws(
      () => fail('x'),
      (err) => ConformanceFailure.is(err),
    );
    assert.throws(
      () => expectEqual(1, 2, 'count'),
      (err) => ConformanceFailure.is(err) && /count: got 1, expected 2/.test((err as Error).message),
    );
    assert.throws(() => expectIdentical({ a: { b: 1 } }, { a: { b: 2 } }, 'record'), /differs at \.a\.b: 1 ≠ 2/);
    assert.ok(!ConformanceFailure.is(new HarnessError('no answer')));
    assert.ok(!ConformanceFailure.is(new TypeError('bug')));
  });

  it('expectError checks the catalogue status as well as the code', () => {
    const reply = (status: number, code: string) =>
      ({
        op: 'getInstance',
        status,
        headers: {},
        text: '',
        json: { error: { code, message: 'm' } },
        exchange: undefined as never,
      }) as never;
    assert.doesNotThrow(() => expectError(reply(409, 'FENCE_LOST'), 'FENCE_LOST'));
    assert.throws(() => expectError(reply(400, 'FENCE_LOST'), 'FENCE_LOST'), /expected 409 FENCE_LOST, got 400 FENCE_LOST/);
    assert.throws(
      () => expectError(reply(409, 'CONFLICT'), 'FENCE_LOST'),
      (err) => ConformanceFailure.is(err),
    );
  });
});

describe('judging global state others may change', () => {
  /** A context whose catalog revision is `state.revision`, moved by `noise` on every read. */
  const world = (noise: () => number) => {
    const state = { revision: 0 };
    const ctx = { sleep: async () => {}, fx: { revision: async () => (state.revision += noise()) } } as unknown as CaseContext;
    return { state, ctx };
  };

  it('keeps-the-revision: passes in a quiet window, fails when only the action moves it, errors when everything moves', async () => {
    const quiet = world(() => 0);
    await expectRevisionKept(quiet.ctx, 'a heartbeat', async () => {});
    const guilty = world(() => 0);
    await assert.rejects(
      expectRevisionKept(guilty.ctx, 'an identical write', async () => void (guilty.state.revision += 1)),
      (err) => ConformanceFailure.is(err),
    );
    const busy = world(() => 1);
    await assert.rejects(
      expectRevisionKept(busy.ctx, 'a heartbeat', async () => {}),
      (err) => err instanceof HarnessError,
    );
  });

  it('exact effects: pass when exact, fail against quiet controls, error when the controls are busy', async () => {
    const effect = (step: number, noise: () => number) => {
      let count = 0;
      return {
        read: async () => (count += noise()),
        act: async () => void (count += step),
        check: (before: number, after: number) => (after - before === 1 ? null : `moved by ${after - before}`),
        unchanged: (before: number, after: number) => before === after,
      };
    };
    const ctx = { sleep: async () => {} } as unknown as CaseContext;
    await expectExactEffect(
      ctx,
      'count',
      effect(1, () => 0),
    );
    await assert.rejects(
      expectExactEffect(
        ctx,
        'count',
        effect(2, () => 0),
      ),
      (err) => ConformanceFailure.is(err) && /moved by 2/.test((err as Error).message),
    );
    await assert.rejects(
      expectExactEffect(
        ctx,
        'count',
        effect(1, () => 1),
      ),
      (err) => err instanceof HarnessError,
    );
  });
});

describe('tokens at the edges of [auth-time]', () => {
  it('places exp and nbf 31 s beyond the edges on the target clock, widened by its uncertainty', async () => {
    const { privateJwk } = await generateSigningKeys();
    const minter = new HarnessTokens(await signingKeyFromJwk(privateJwk), 'fleetproof-registry');
    // The target runs an hour ahead of this machine, known to ±2 s.
    const clock = new ServerClock(3_600_000, 'test', 2_000);
    const caller = { roles: ['registry:reader'] };
    const expired = decodeJwt(await minter.forged('expired', caller, clock));
    const serverSeconds = clock.now() / 1000;
    assert.ok(
      expired.exp! <= serverSeconds - 33 && expired.exp! >= serverSeconds - 35,
      `exp ${expired.exp} against the target's ${serverSeconds}`,
    );
    const early = decodeJwt(await minter.forged('not-yet-valid', caller, clock));
    assert.ok(
      early.nbf! >= serverSeconds + 33 && early.nbf! <= serverSeconds + 35,
      `nbf ${early.nbf} against the target's ${serverSeconds}`,
    );
    assert.ok(early.exp! > early.nbf!);
  });

  it('refuses to place them without a clock good enough to judge', async () => {
    const { privateJwk } = await generateSigningKeys();
    const minter = new HarnessTokens(await signingKeyFromJwk(privateJwk), 'fleetproof-registry');
    const caller = { roles: ['registry:reader'] };
    await assert.rejects(
      minter.forged('expired', caller, new ServerClock(0, 'local clock', Number.POSITIVE_INFINITY)),
      (err) => err instanceof HarnessError,
    );
    await assert.rejects(
      minter.forged('not-yet-valid', caller, new ServerClock(0, 'slow link', 30_000)),
      (err) => err instanceof HarnessError,
    );
    await assert.rejects(minter.forged('expired', caller), /ctx\.clock/);
  });
});

describe('Prometheus sample lines', () => {
  it('accept quoted label values holding braces, commas and the three escapes', () => {
    for (const line of [
      'up 1',
      'http_requests_total{path="/a}b",le="+Inf"} 3 1700000000000',
      'm{v="q\\"uote\\\\back\\nline",} NaN',
      'm{} -Inf',
      'm{a="1", b="2"} 2.5e-3',
      'm 0x1p-2',
    ]) {
      assert.ok(isPrometheusSample(line), line);
    }
  });

  it('refuse unterminated or unquoted values, unknown escapes and missing values', () => {
    for (const line of ['m{a="1} 2', 'm{a=1} 2', 'm{a="\\x"} 1', 'm{a="1"}', 'm{a="1"}} 2', 'm{a="1"b="2"} 1', '1m 1', 'm one']) {
      assert.ok(!isPrometheusSample(line), line);
    }
  });
});
