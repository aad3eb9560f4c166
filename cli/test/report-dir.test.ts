// --report-dir names the report folder on every command that writes one;
// --out (k6's flag for metric outputs) still works for one release, warned.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseFlags, type FlagSpec } from '../args.ts';
import { COMMANDS } from '../main.ts';

const WRITERS = ['certify', 'conform', 'properties', 'load', 'report'];

async function flagsOf(name: string): Promise<Record<string, FlagSpec>> {
  return (await COMMANDS[name]!.flags()).FLAGS;
}

function parse(name: string, flags: Record<string, FlagSpec>, argv: string[], env: NodeJS.ProcessEnv = {}, cwd = tmpdir()) {
  const warnings: string[] = [];
  const parsed = parseFlags(name, '', flags, argv, {
    env,
    cwd,
    announce: (line) => warnings.push(line),
    ...(name === 'report' ? { positionals: 'DIR...' } : {}),
  });
  return { values: parsed!.values as Record<string, unknown>, warnings: warnings.filter((w) => w.includes('warning')) };
}

test('every command that writes reports takes --report-dir, and --out with a warning', async () => {
  for (const name of WRITERS) {
    const flags = await flagsOf(name);
    assert.ok('report-dir' in flags && !('out' in flags), name);
    const plain = parse(name, flags, ['--report-dir', 'a']);
    assert.equal(plain.values['report-dir'], 'a');
    assert.deepEqual(plain.warnings, []);
    const old = parse(name, flags, ['--out', 'b']);
    assert.equal(old.values['report-dir'], 'b', name);
    assert.match(old.warnings.join('\n'), /warning: --out is renamed --report-dir .*next release/, name);
    assert.throws(() => parse(name, flags, ['--out', 'b', '--report-dir', 'a']), /give --report-dir alone/);
  }
});

test('the old variable and config member still work, warned; the new ones win', async (t) => {
  const flags = await flagsOf('conform');
  const fromEnv = parse('conform', flags, [], { FLEETPROOF_OUT: 'e' });
  assert.equal(fromEnv.values['report-dir'], 'e');
  assert.match(fromEnv.warnings.join('\n'), /FLEETPROOF_OUT is renamed FLEETPROOF_REPORT_DIR/);
  assert.equal(parse('conform', flags, [], { FLEETPROOF_OUT: 'e', FLEETPROOF_REPORT_DIR: 'n' }).values['report-dir'], 'n');
  const dir = await mkdtemp(join(tmpdir(), 'fleetproof-report-dir-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'fleetproof.config.json'), JSON.stringify({ out: 'f' }));
  const fromFile = parse('conform', flags, [], {}, dir);
  assert.equal(fromFile.values['report-dir'], 'f');
  assert.match(fromFile.warnings.join('\n'), /"out" in fleetproof.config.json is renamed "report_dir"/);
});
