// What `fleetproof directory` accepts: its summary, and each subcommand's
// (watch, labels) with its flags, as data. The dispatcher (main.ts) reads this
// alone for --help and to refuse an unknown flag, so it imports only what
// loads at once: never the command's module, nor a package a run needs
// (cli/test/answers-from-flags.test.ts).
import { exitCodesLine, type FlagSpec } from '../args.ts';
import { AUTH_FLAGS } from './shared.ts';

export const summary = "report a Kubernetes Service's pods to a registry as replica health";

export const WATCH_SUMMARY =
  "Observes one connector instance's Service and EndpointSlices and reports each pod as a replica:\n" +
  'ready -> ready, terminating but serving -> draining, anything else or deleted -> offline.\n' +
  'Leases are renewed only while the watch is live. Exits 0 on SIGINT/SIGTERM, 1 when the Service is deleted.';

export const FLAGS = {
  'kube-api': { type: 'string', description: 'Kubernetes API origin, e.g. https://kube.example:6443 (required)' },
  binding: { type: 'string', description: 'binding file (YAML or JSON): target, kubernetes binding, replica template (required)' },
  target: { type: 'string', description: 'registry base URL, e.g. http://127.0.0.1:8080 (required)' },
  key: {
    type: 'string',
    description: 'private Ed25519 signing key (JWK) to mint registry tokens with (required unless --token-cmd or --header authenticate)',
  },
  ...AUTH_FLAGS,
  'kube-token-file': { type: 'string', description: 'file holding the bearer token for the Kubernetes API' },
  'kube-ca-file': { type: 'string', description: 'PEM file of the CA that signed the Kubernetes API certificate' },
  audience: { type: 'string', description: 'audience of the registry tokens', default: 'fleetproof-registry' },
} satisfies Record<string, FlagSpec>;

export const LABELS_SUMMARY = 'Prints the labels the bound Service and its EndpointSlices must carry (the markers include the target key).';
export const LABEL_FLAGS = {
  binding: { type: 'string', description: 'binding file (YAML or JSON) (required)' },
} satisfies Record<string, FlagSpec>;

/** Each subcommand's help: what it is called in usage lines, what it does, its flags. */
export const SUBCOMMANDS: Readonly<Record<string, { summary: string; flags: Record<string, FlagSpec> }>> = {
  watch: { summary: WATCH_SUMMARY, flags: FLAGS },
  labels: { summary: LABELS_SUMMARY, flags: LABEL_FLAGS },
};

/** What `fleetproof directory` prints without a subcommand, or with --help. */
export const OVERVIEW = [
  'usage: fleetproof directory <watch|labels> [options]',
  '',
  summary,
  '',
  '  watch   observe the Service and report its pods to the registry',
  '  labels  print the labels the Service and its slices must carry',
  '',
  'Run `fleetproof directory <subcommand> --help` for its options.',
  exitCodesLine(),
].join('\n');
