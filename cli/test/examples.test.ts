// Every command line the README, the docs and the helps show runs past the
// real parser: each example's flags are flags of its command, with a value
// where one is needed. The help's own closing lines are right too.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { splitCommand } from '../../client/credential-sources.ts';
import { EXIT_CODES_DOC, helpText, parseFlags } from '../args.ts';
import { COMMANDS } from '../main.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** `npx fleetproof …` lines of the shell blocks of a Markdown file, continuation lines joined, comments cut. */
function commandLines(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks
    .flatMap((b) => b.replace(/\\\n\s*/g, ' ').split('\n'))
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => /^(npx )?fleetproof /.test(l) || /^[A-Z_]+=\S+ (npx )?fleetproof /.test(l));
}

async function parseExample(line: string): Promise<void> {
  const words = splitCommand(line.replace(/^([A-Z_]+=\S+ )+/, '').replace(/^npx /, ''));
  let [, name, ...args] = words;
  const command = COMMANDS[name!];
  assert.ok(command, `${line}: no command ${name}`);
  const table = await command.flags();
  let flags = table.FLAGS;
  if (table.SUBCOMMANDS) {
    const sub = table.SUBCOMMANDS[args[0]!];
    assert.ok(sub, `${line}: no subcommand ${args[0]}`);
    [name, flags, args] = [`${name} ${args[0]}`, sub.flags, args.slice(1)];
  }
  const positionals = table.POSITIONALS;
  parseFlags(name!, '', flags, args, {
    ...(positionals ? { positionals } : {}),
    env: {},
    cwd: ROOT,
    announce: () => {},
  });
}

function markdownFiles(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md'));
  return ['README.md', 'CONTRIBUTING.md', ...docs.map((f) => join('docs', f))].filter((f) => existsSync(join(ROOT, f)));
}

test('every fleetproof command in the README and docs parses with the real parser', async () => {
  let seen = 0;
  for (const file of markdownFiles()) {
    for (const line of commandLines(readFileSync(join(ROOT, file), 'utf8'))) {
      seen++;
      await assert.doesNotReject(() => parseExample(line), `${file}: ${line}`);
    }
  }
  assert.ok(seen >= 10, `only ${seen} command lines found: the extraction is broken`);
});

test('every help names only flags its command has, and ends with where the exit codes are', async () => {
  assert.ok(existsSync(EXIT_CODES_DOC), EXIT_CODES_DOC);
  for (const [name, command] of Object.entries(COMMANDS)) {
    const { FLAGS, summary } = await command.flags();
    const help = helpText(name, summary, FLAGS);
    assert.equal(help.split('\n').at(-1), `Exit codes: ${EXIT_CODES_DOC}`, name);
    const example = /e\.g\. (--[a-z-]+) from (FLEETPROOF_[A-Z_]+)/.exec(help);
    if (example) assert.ok(example[1]!.slice(2) in FLAGS, `${name} --help shows ${example[1]}, a flag it does not have`);
    // `fleetproof CMD --flag …` inside a description names a command and flags that exist.
    for (const m of help.matchAll(/fleetproof ([a-z]+)((?: --[a-z-]+(?: [A-Za-z0-9$.{}_-]+)?)+)/g)) {
      const other = await COMMANDS[m[1]!]!.flags();
      for (const flag of m[2]!.match(/--[a-z-]+/g)!)
        assert.ok(flag.slice(2) in other.FLAGS, `${name} --help names fleetproof ${m[1]} ${flag}, which it does not take`);
    }
  }
});

test('the top-level help and the directory overview end with where the exit codes are too', async () => {
  const { usage } = await import('../main.ts');
  assert.equal(usage().split('\n').at(-1), `Exit codes: ${EXIT_CODES_DOC}`);
  const { OVERVIEW } = await import('../flags/directory.ts');
  assert.equal(OVERVIEW.split('\n').at(-1), `Exit codes: ${EXIT_CODES_DOC}`);
});
