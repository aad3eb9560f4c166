// The `fleetproof` command: one entry point, one module per subcommand. Each
// subcommand module exports `run(args): Promise<number>` (the exit code) and
// a one-line summary; the dispatcher loads only the one it runs.
import { UsageError } from './args.ts';

interface Command {
  summary: string;
  load(): Promise<{ run(args: string[]): Promise<number> }>;
}

const COMMANDS: Record<string, Command> = {
  certify: { summary: 'certify a registry: conformance, properties and load in one signed report', load: () => import('./certify.ts') },
  verify: { summary: 'verify a signed certification bundle and the results it names', load: () => import('./verify.ts') },
  serve: { summary: 'serve the reference registry over HTTP', load: () => import('./serve.ts') },
  keys: { summary: 'write an Ed25519 signing key and its public JWK set', load: () => import('./keys.ts') },
  token: { summary: 'print a bearer token for the given roles and tenant', load: () => import('./token.ts') },
  conform: { summary: 'certify a registry over HTTP with the conformance suite', load: () => import('./conform.ts') },
  directory: { summary: "report a Kubernetes Service's pods to a registry as replica health", load: () => import('./directory.ts') },
  load: { summary: 'run a scale qualification profile against a registry and audit it', load: () => import('./load.ts') },
  properties: { summary: 'run the property suites against a store or a registry over HTTP', load: () => import('./properties.ts') },
  report: { summary: 'merge the parts of a distributed load run into one report (--merge DIR...)', load: () => import('./report.ts') },
};

export function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length), 8);
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return ['usage: fleetproof <command> [options]', '', 'commands:', ...lines, '', 'Run `fleetproof <command> --help` for its options.'].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`fleetproof: unknown command ${name}\n\n${usage()}`);
    return 2;
  }
  try {
    return await (await command.load()).run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`fleetproof ${name}: ${err.message}`);
      return 2;
    }
    throw err;
  }
}
