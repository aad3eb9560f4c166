// `fleetproof directory watch`: runs the directory bridge for one connector
// instance. It observes the instance's Kubernetes Service through the API
// server at --kube-api, and reports each pod as replica health to the
// registry at --target, with tokens minted from the signing key at --key. It
// runs until SIGINT or SIGTERM (exit 0) or until the Service is deleted
// (exit 1: a new binding is needed, so it does not carry on by itself).
import { readFile } from 'node:fs/promises';
import { loadSigningKey, type SigningKey } from '../contract/tokens.ts';
import { DirectoryBridge, type BridgeEvent } from '../directory/bridge/bridge.ts';
import { loadBindingFile, type BridgeBinding } from '../directory/bridge/binding-file.ts';
import { HttpLifecyclePort } from '../directory/bridge/http-lifecycle.ts';
import { lifecycleTokenSource } from '../directory/bridge/registry-token.ts';
import { endpointSliceRequiredLabels, serviceLabels } from '../directory/kubernetes/binding.ts';
import { KubernetesDirectory } from '../directory/kubernetes/directory.ts';
import { UndiciRequestExecutor } from '../directory/kubernetes/undici-executor.ts';
import { credentialsOf, hasOwnCredentials } from '../client/credential-sources.ts';
import { bearerCredentials } from '../client/credentials.ts';
import { asksForHelp, parseFlags, unknownSubcommand, UsageError } from './args.ts';
import { authChoice } from './auth-flags.ts';
import { signalWatch } from './orphan-watch.ts';

import { FLAGS, LABEL_FLAGS, LABELS_SUMMARY, OVERVIEW, SUBCOMMANDS, WATCH_SUMMARY } from './flags/directory.ts';

function usageError(message: string): UsageError {
  return new UsageError(`${message}`);
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw usageError(`--${flag} is required`);
  return value;
}

async function readSecret(path: string | undefined, what: string): Promise<string | undefined> {
  if (path === undefined) return undefined;
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch (err) {
    throw usageError(`cannot read ${what} ${path}: ${(err as Error).message}`);
  }
}

export function describeEvent(e: BridgeEvent): string {
  switch (e.kind) {
    case 'observing':
      return 'observing';
    case 'observed':
      return `observed ${e.state} (${e.instances} pods)`;
    case 'change':
      return `change ${e.localOrder}: ${e.change}`;
    case 'reported':
      return `${e.provisioned ? 'provisioned' : 'reported'} ${e.replicaId} ${e.status} (health revision ${e.healthRevision})`;
    case 'report_failed':
      return `report for ${e.replicaId} failed: ${e.error}`;
    case 'observe_failed':
    case 'observation_ended':
      return `${e.kind === 'observe_failed' ? 'observe failed' : 'observation ended'}: ${e.outcome ?? 'error'}${e.reason ? `/${e.reason}` : ''}`;
    case 'retrying':
      return `observing again in ${e.delayMs} ms`;
    case 'renewed':
      return `renewed ${e.replicas} leases`;
  }
}

async function watch(argv: string[]): Promise<number> {
  const parsed = parseFlags('directory watch', WATCH_SUMMARY, FLAGS, argv);
  if (!parsed) return 0;
  const { values } = parsed;
  const kubeApi = required(values['kube-api'], 'kube-api');
  const bindingPath = required(values.binding, 'binding');
  const registryUrl = required(values.target, 'target');
  const auth = authChoice(values);
  const keyPath = hasOwnCredentials(auth) ? values.key : required(values.key, 'key');
  try {
    const url = new URL(registryUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    throw usageError(`--target must be an http(s) URL, not ${registryUrl}`);
  }

  let binding: BridgeBinding;
  let key: SigningKey | null;
  try {
    binding = await loadBindingFile(bindingPath, kubeApi);
    key = keyPath === undefined ? null : await loadSigningKey(keyPath);
  } catch (err) {
    // A bad binding file or key is a usage problem: say what is wrong and stop.
    throw usageError(err instanceof Error ? err.message : String(err));
  }
  const kubeToken = await readSecret(values['kube-token-file'], 'Kubernetes token file');
  const kubeCa = await readSecret(values['kube-ca-file'], 'Kubernetes CA file');

  const executor = new UndiciRequestExecutor({
    origin: kubeApi,
    ...(kubeToken ? { bearerToken: kubeToken } : {}),
    ...(kubeCa ? { ca: kubeCa } : {}),
  });
  const minted = key ? lifecycleTokenSource(key, { audience: values.audience! }) : null;
  const lifecycle = new HttpLifecyclePort({
    baseUrl: registryUrl,
    token: minted ?? (() => Promise.reject(new Error('no signing key'))),
    ...(hasOwnCredentials(auth) ? { credentials: credentialsOf(auth, minted ? bearerCredentials(minted) : null) } : {}),
  });
  const directory = new KubernetesDirectory({ bindings: [binding.kubernetes], executor });
  const bridge = new DirectoryBridge({
    directory,
    target: binding.kubernetes.target,
    template: binding.template,
    lifecycle,
    ...(binding.backoff ? { backoff: binding.backoff } : {}),
    onEvent: (e) => console.log(`directory: ${describeEvent(e)}`),
  });

  let stoppedBy: NodeJS.Signals | undefined;
  const signals = signalWatch();
  void signals.received.then((signal) => {
    stoppedBy = signal;
    void bridge.stop();
  });
  try {
    const exit = await bridge.run();
    if (exit === 'target_deleted') {
      console.error('fleetproof directory watch: the Service was deleted; its replicas are offline. A new binding is needed.');
      return 1;
    }
    console.error(`fleetproof directory watch: ${stoppedBy ?? 'stopped'}; leases are no longer renewed`);
    return 0;
  } finally {
    signals.stop();
    await directory.close();
    await executor.close();
    await lifecycle.close();
  }
}

/** The labels depend only on the target and the Kubernetes names, never on the API origin. */
const ANY_ORIGIN = 'https://kubernetes.invalid';

async function labels(argv: string[]): Promise<number> {
  const parsed = parseFlags('directory labels', LABELS_SUMMARY, LABEL_FLAGS, argv);
  if (!parsed) return 0;
  const path = parsed.values.binding;
  if (path === undefined) throw new UsageError(`--binding is required`);
  // A file that cannot be read or is not valid ends with its own code, FP_ERR_BINDING_FILE.
  const binding: BridgeBinding = await loadBindingFile(path, ANY_ORIGIN, { ignoreApiOrigin: true });
  const show = (title: string, map: Record<string, string>) => [
    title,
    ...Object.keys(map)
      .sort()
      .map((k) => `  ${k}=${map[k]}`),
  ];
  console.log(
    [
      ...show('Service labels:', serviceLabels(binding.kubernetes)),
      ...show('EndpointSlice labels:', endpointSliceRequiredLabels(binding.kubernetes)),
    ].join('\n'),
  );
  return 0;
}

export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || asksForHelp([sub])) {
    console.log(OVERVIEW);
    return sub === undefined ? 2 : 0;
  }
  if (sub === 'watch') return watch(rest);
  if (sub === 'labels') return labels(rest);
  throw unknownSubcommand(sub, Object.keys(SUBCOMMANDS));
}
