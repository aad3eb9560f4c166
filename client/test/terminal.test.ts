import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bar, counted, eta, liveBlock, seconds, statusLine } from '../terminal.ts';
import { capturedStream } from './captured-stream.ts';

test('counts take the word form their number needs', () => {
  assert.equal(counted(1, 'case'), '1 case');
  assert.equal(counted(0, 'case'), '0 cases');
  assert.equal(counted(215, 'case'), '215 cases');
  assert.equal(counted(2, 'fault'), '2 faults');
});

test('the bar fills with the share done and keeps its width', () => {
  assert.equal(bar(0, 10), '[----------]');
  assert.equal(bar(0.5, 10), '[====>-----]');
  assert.equal(bar(1, 10), '[==========]');
  assert.equal(bar(2, 10), '[==========]', 'a share past the end is a full bar');
  for (const share of [0, 0.13, 0.5, 0.99, 1]) assert.equal(bar(share, 20).length, 22);
});

test('the time left follows the pace so far, and is left out before a pace and after the end', () => {
  assert.equal(eta(10_000, 0.5), 'ETA 10s');
  assert.equal(eta(30_000, 0.25), 'ETA 1m30s');
  assert.equal(eta(10_000, 0), '');
  assert.equal(eta(10_000, 1), '');
  assert.equal(seconds(75), '1m15s');
  assert.equal(seconds(9.4), '9s');
});

test('a live block moves back over the lines it drew, and lines drawn above it stay', () => {
  let written = '';
  const block = liveBlock({ write: (t: string) => (written += t) });
  block.draw(['one', 'two', 'three']);
  written = '';
  block.draw(['uno', 'dos', 'tres']);
  assert.ok(written.startsWith('\x1b[2A\r\x1b[J'), JSON.stringify(written));
  written = '';
  block.above(['FAIL a case']);
  assert.equal(written, '\x1b[2A\r\x1b[JFAIL a case\n\r\x1b[Juno\ndos\ntres');
  written = '';
  block.end();
  assert.equal(written, '\n');
});

test('a line wider than the terminal is cut, so the block keeps its height', () => {
  let written = '';
  const block = liveBlock({ write: (t: string) => (written += t), columns: 11 });
  block.draw(['0123456789abcdef']);
  assert.equal(written, '\r\x1b[J0123456789');
});

test('a status line is redrawn as time passes on a terminal, and never drawn in a log', (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  let n = 0;
  const tty = capturedStream(true);
  const live = statusLine(tty, () => `tick ${++n}`);
  live.start();
  t.mock.timers.tick(1000);
  live.above(['FAIL a case']);
  live.end();
  assert.equal(tty.text, '\r\x1b[Jtick 1\r\x1b[Jtick 2\r\x1b[Jtick 3\r\x1b[JFAIL a case\n\r\x1b[Jtick 3\r\x1b[Jtick 4\n');
  t.mock.timers.tick(1000);
  assert.ok(tty.text.endsWith('tick 4\n'), 'nothing redraws after the end');
  const log = capturedStream(false);
  const quiet = statusLine(log, () => 'drawn');
  quiet.start();
  t.mock.timers.tick(1000);
  quiet.above(['FAIL a case']);
  quiet.end();
  assert.equal(log.text, 'FAIL a case\n');
});
