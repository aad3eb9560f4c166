// The nemesis flags refuse what cannot run before anything starts: a kind
// that does not exist, commands without their kind or their heal, builtin
// faults for a registry that has none.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_SCHEDULE } from '../../certify/nemesis/nemesis.ts';
import { CERTIFY_SCHEDULE } from '../../certify/run-certification.ts';
import { UsageError } from '../args.ts';
import { NEMESIS_FLAGS } from '../flags/shared.ts';
import { nemesisRequestOf } from '../nemesis-flags.ts';

describe('the nemesis flags', () => {
  it('make no request without --nemesis, and refuse its companions alone', () => {
    assert.equal(nemesisRequestOf({}), null);
    assert.throws(() => nemesisRequestOf({ 'nemesis-interval': '3s' }), UsageError);
    assert.throws(() => nemesisRequestOf({ 'nemesis-cmd': ['storage-down=true'] }), UsageError);
  });

  it('read kinds, rhythm and commands', () => {
    const r = nemesisRequestOf(
      { nemesis: 'proxy,command', 'nemesis-interval': '1s/2s', 'nemesis-cmd': ['storage-down=a', 'storage-up=b'] },
      undefined,
      5,
    )!;
    assert.deepEqual(
      [r.kinds, r.schedule.faultMs, r.schedule.quietMs, r.commands, r.seed],
      [['proxy', 'command'], 1000, 2000, ['storage-down=a', 'storage-up=b'], 5],
    );
  });

  it('take the schedule seed from --nemesis-seed, else the caller, else draw one', () => {
    assert.equal(nemesisRequestOf({ nemesis: 'proxy', 'nemesis-seed': '42' }, undefined, 5)!.seed, 42);
    assert.equal(nemesisRequestOf({ nemesis: 'proxy' }, undefined, 5)!.seed, 5);
    assert.equal(typeof nemesisRequestOf({ nemesis: 'proxy' })!.seed, 'number', 'a drawn seed, printed so the schedule replays');
    assert.throws(() => nemesisRequestOf({ nemesis: 'proxy', 'nemesis-seed': 'soon' }), UsageError);
    assert.throws(() => nemesisRequestOf({ 'nemesis-seed': '1' }), UsageError);
  });

  it('refuse unknown kinds, half a command pair, and builtin faults a target does not have', () => {
    assert.throws(() => nemesisRequestOf({ nemesis: 'chaos' }), /takes proxy, command, builtin/);
    assert.throws(() => nemesisRequestOf({ nemesis: 'command', 'nemesis-cmd': ['process-kill=x'] }), /go together/);
    assert.throws(
      () => nemesisRequestOf({ nemesis: 'proxy', 'nemesis-cmd': ['storage-down=a', 'storage-up=b'] }),
      /needs --nemesis command/,
    );
    assert.throws(() => nemesisRequestOf({ nemesis: 'builtin' }), /embedded reference only/);
    assert.deepEqual(nemesisRequestOf({ nemesis: 'builtin' }, [])!.kinds, ['builtin']);
  });

  it('state in their help the rhythm each command runs by default', () => {
    const s = (ms: number) => `${ms / 1000}s`;
    const help = NEMESIS_FLAGS['nemesis-interval'].description;
    assert.ok(help.includes(`default ${s(DEFAULT_SCHEDULE.faultMs)}/${s(DEFAULT_SCHEDULE.quietMs)}`), help);
    assert.ok(help.includes(`certify ${s(CERTIFY_SCHEDULE.faultMs)}/${s(CERTIFY_SCHEDULE.quietMs)}`), help);
  });
});
