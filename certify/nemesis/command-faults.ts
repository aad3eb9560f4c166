// Faults only the vendor can cause — stopping its storage, killing its
// process — as shell commands the user wrote on the command line
// (`--nemesis-cmd storage-down='…'`). fleetproof runs those and nothing
// else, each bounded in time; a command that fails stops the run, healed.
import { spawn } from 'node:child_process';
import type { Fault } from './nemesis.ts';

/** Each fault's breaking and mending command, by the names the flag takes. */
export const COMMAND_PAIRS = { storage: ['storage-down', 'storage-up'], process: ['process-kill', 'process-start'] } as const;

type CommandName = (typeof COMMAND_PAIRS)[keyof typeof COMMAND_PAIRS][number];
const COMMAND_NAMES: readonly string[] = Object.values(COMMAND_PAIRS).flat();
const COMMAND_TIMEOUT_MS = 120_000;

/** Parses repeated `NAME=COMMAND` values; every fault needs both its halves. */
export function parseNemesisCommands(values: readonly string[]): Map<CommandName, string> {
  const commands = new Map<CommandName, string>();
  for (const value of values) {
    const eq = value.indexOf('=');
    const name = eq > 0 ? value.slice(0, eq) : value;
    if (!COMMAND_NAMES.includes(name)) throw new Error(`--nemesis-cmd takes ${COMMAND_NAMES.join(', ')}=COMMAND, not ${value}`);
    const command = value.slice(eq + 1).trim();
    if (eq < 0 || command === '') throw new Error(`--nemesis-cmd ${name} needs a command: ${name}='…'`);
    commands.set(name as CommandName, command);
  }
  for (const [down, up] of Object.values(COMMAND_PAIRS)) {
    if (commands.has(down) !== commands.has(up))
      throw new Error(`--nemesis-cmd ${down} and ${up} go together: a fault without its heal is never run`);
  }
  if (commands.size === 0)
    throw new Error('--nemesis command needs --nemesis-cmd storage-down=… storage-up=… or process-kill=… process-start=…');
  return commands;
}

export function runCommand(command: string, log: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'], timeout: COMMAND_TIMEOUT_MS });
    const output: string[] = [];
    child.stdout.on('data', (b: Buffer) => output.push(b.toString()));
    child.stderr.on('data', (b: Buffer) => output.push(b.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const tail = output.join('').trim().split('\n').slice(-3).join(' | ');
      if (code === 0) {
        if (tail) log(`  ${tail}`);
        resolve();
      } else reject(new Error(`\`${command}\` ended with ${signal ?? `exit ${code}`}${tail ? `: ${tail}` : ''}`));
    });
  });
}

export function commandFaults(commands: ReadonlyMap<CommandName, string>, log: (line: string) => void): Fault[] {
  return Object.entries(COMMAND_PAIRS)
    .filter(([, [down]]) => commands.has(down))
    .map(([name, [down, up]]) => ({
      name,
      inject: () => runCommand(commands.get(down)!, log),
      heal: () => runCommand(commands.get(up)!, log),
    }));
}
