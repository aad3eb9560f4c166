// The `fleetproof` command: one entry point, two modules per subcommand.
// flags/<command>.ts says what it accepts (summary and FLAGS, data only);
// <command>.ts exports `run(args): Promise<number>` (the exit code). The
// dispatcher answers --help and a flag the command does not take from the
// first alone, loads the second only to run it, and reads the other
// commands' flags only to judge a FLEETPROOF_* variable or config member the
// running one does not read.
import { FleetproofError } from '../client/errors.ts';
import { harnessProvenance } from '../client/provenance.ts';
import { asksForHelp, exitCodesLine, helpHint, helpText, readArgv, settingNames, unknownSubcommand, type FlagSpec } from './args.ts';
import { readConfigFile, unknownMembers, unknownVariables, OTHER_VARIABLES } from './config.ts';
import { stopWhenOrphaned } from './orphan-watch.ts';
import { didYouMean } from './suggest.ts';

interface CommandModule {
  run(args: string[]): Promise<number>;
}

/** What a command accepts (flags/<command>.ts). */
interface CommandFlags {
  summary: string;
  FLAGS: Record<string, FlagSpec>;
  /** What the command takes besides flags, as its usage line names it; none if absent. */
  POSITIONALS?: string;
  /** A command of subcommands: each one's summary and flags, and what it prints without one. */
  SUBCOMMANDS?: Readonly<Record<string, { summary: string; flags: Record<string, FlagSpec> }>>;
  OVERVIEW?: string;
}

interface Command {
  summary: string;
  flags(): Promise<CommandFlags>;
  load(): Promise<CommandModule>;
}

export const COMMANDS: Record<string, Command> = {
  certify: {
    summary: 'certify a registry: conformance, properties, faults and load in one signed report',
    flags: () => import('./flags/certify.ts'),
    load: () => import('./certify.ts'),
  },
  verify: {
    summary: 'verify a signed certification bundle and the results it names',
    flags: () => import('./flags/verify.ts'),
    load: () => import('./verify.ts'),
  },
  serve: { summary: 'serve the reference registry over HTTP', flags: () => import('./flags/serve.ts'), load: () => import('./serve.ts') },
  keys: {
    summary: 'write an Ed25519 signing key and its public JWK set',
    flags: () => import('./flags/keys.ts'),
    load: () => import('./keys.ts'),
  },
  token: {
    summary: 'print a bearer token for the given roles and tenant',
    flags: () => import('./flags/token.ts'),
    load: () => import('./token.ts'),
  },
  conform: {
    summary: 'run the conformance suite against a registry over HTTP',
    flags: () => import('./flags/conform.ts'),
    load: () => import('./conform.ts'),
  },
  directory: {
    summary: "report a Kubernetes Service's pods to a registry as replica health",
    flags: () => import('./flags/directory.ts'),
    load: () => import('./directory.ts'),
  },
  load: {
    summary: 'run a scale qualification profile against a registry and audit it',
    flags: () => import('./flags/load.ts'),
    load: () => import('./load.ts'),
  },
  properties: {
    summary: 'run the property suites against a store or a registry over HTTP',
    flags: () => import('./flags/properties.ts'),
    load: () => import('./properties.ts'),
  },
  report: {
    summary: 'merge the parts of a distributed load run (--merge DIR...), or compare two runs (--compare A B)',
    flags: () => import('./flags/report.ts'),
    load: () => import('./report.ts'),
  },
};

export function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length), 8);
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return [
    'usage: fleetproof <command> [options]',
    '',
    'commands:',
    ...lines,
    '',
    'Run `fleetproof <command> --help` for its options, `fleetproof --version` for the harness version.',
    exitCodesLine(),
  ].join('\n');
}

function versionLine(): string {
  const p = harnessProvenance();
  return `${p.name} ${p.version} (commit ${p.commit}${p.dirty ? ', modified' : ''}; node ${p.node})`;
}

/** The config file this run reads, found as parseFlags finds it (a bad file is parseFlags' error to report). */
function configFileOf(argv: string[]) {
  const at = argv.findIndex((a) => a === '--config' || a.startsWith('--config='));
  const named =
    at < 0 ? process.env['FLEETPROOF_CONFIG'] || undefined : argv[at]!.includes('=') ? argv[at]!.slice('--config='.length) : argv[at + 1];
  try {
    return readConfigFile(named, process.cwd());
  } catch {
    return null;
  }
}

/** Warnings for FLEETPROOF_* variables and config members no command reads. */
async function warnAboutUnknownSettings(running: CommandFlags, argv: string[]): Promise<void> {
  const file = configFileOf(argv);
  const own = settingNames(running.FLAGS);
  const strayEnv = Object.keys(process.env).filter((n) => n.startsWith('FLEETPROOF_') && !own.env.includes(n) && !(n in OTHER_VARIABLES));
  const strayMembers = Object.keys(file?.members ?? {}).filter((m) => !own.members.includes(m));
  if (strayEnv.length === 0 && strayMembers.length === 0) return;
  // Another command's setting (a config file shared by serve and certify) is no mistake.
  const env = new Set<string>();
  const members = new Set<string>();
  for (const c of Object.values(COMMANDS)) {
    const names = settingNames((await c.flags()).FLAGS);
    names.env.forEach((n) => env.add(n));
    names.members.forEach((m) => members.add(m));
  }
  for (const warning of unknownVariables(process.env, [...env])) console.error(`fleetproof: warning: ${warning}`);
  if (file) for (const warning of unknownMembers(file, [...members])) console.error(`fleetproof: warning: ${warning}`);
}

/**
 * Prints the help argv asks for, or refuses a flag the command does not take
 * (a UsageError), from the command's flags alone: neither needs the modules
 * the command runs, which take most of a second to load. A command of
 * subcommands prints its overview without one, and refuses one it does not
 * have. The exit code when it answered; null when the command is to run.
 */
function answeredFromFlags(name: string, table: CommandFlags, argv: string[]): number | null {
  let [command, summary, flags, args] = [name, table.summary, table.FLAGS, argv];
  if (table.SUBCOMMANDS) {
    const [first, ...rest] = argv;
    if (first === undefined || asksForHelp([first])) {
      console.log(table.OVERVIEW);
      return first === undefined ? 2 : 0;
    }
    if (!Object.hasOwn(table.SUBCOMMANDS, first)) throw unknownSubcommand(first, Object.keys(table.SUBCOMMANDS));
    const sub = table.SUBCOMMANDS[first]!;
    [command, summary, flags, args] = [`${name} ${first}`, sub.summary, sub.flags, rest];
  }
  if (asksForHelp(args)) {
    console.log(helpText(command, summary, flags, table.POSITIONALS));
    return 0;
  }
  readArgv(command, flags, args, table.POSITIONALS);
  return null;
}

export async function main(argv: string[]): Promise<number> {
  // A reader that stops early (`fleetproof conform --list | head`) is no error of the program's.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    console.log(versionLine());
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    const what = name.startsWith('-') ? `unknown option ${name}` : `unknown command ${name}`;
    console.error(
      `fleetproof: ${what}${didYouMean(name.replace(/^-+/, ''), Object.keys(COMMANDS))}; run \`fleetproof --help\` for the commands`,
    );
    return 2;
  }
  stopWhenOrphaned();
  try {
    const table = await command.flags();
    const answered = answeredFromFlags(name, table, rest);
    if (answered !== null) return answered;
    if (!asksForHelp(rest)) await warnAboutUnknownSettings(table, rest);
    return await (await command.load()).run(rest);
  } catch (err) {
    // The one place a harness error becomes an exit code (client/errors.ts, docs/exit-codes.md).
    if (FleetproofError.is(err)) {
      const flags = err.code === 'FP_ERR_USAGE' || err.code === 'FP_ERR_CONFIG';
      const text = flags && !err.message.includes('--help') ? `${err.message}; ${helpHint(name)}` : err.message;
      console.error(`fleetproof ${name}: ${err.code === 'FP_ERR_USAGE' ? '' : 'could not run: '}${text} [${err.code}]`);
      return err.exitCode;
    }
    // Exit 1 means the registry is at fault; a failure of the harness itself (a file it cannot write, a disk
    // full, a defect of its own) says nothing of the registry, so it is 2, could not run, with its stack.
    console.error(`fleetproof ${name}: could not run: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return 2;
  }
}
