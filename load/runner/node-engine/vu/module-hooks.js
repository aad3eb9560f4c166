// Node ESM resolve hook for the Node runner's VU threads: k6's built-in
// modules resolve to the Node implementations next to this file; every other
// specifier resolves as usual, so scripts import their own modules unchanged.

/** @type {Record<string, string>} */
const K6_MODULES = {
  k6: 'k6.js',
  'k6/http': 'k6-http.js',
  'k6/metrics': 'k6-metrics.js',
  'k6/execution': 'k6-execution.js',
  'k6/data': 'k6-data.js',
  'k6/crypto': 'k6-crypto.js',
};

/**
 * @param {string} specifier
 * @param {unknown} context
 * @param {(specifier: string, context: unknown) => Promise<unknown>} nextResolve
 */
export async function resolve(specifier, context, nextResolve) {
  const file = K6_MODULES[specifier];
  if (file) return { url: new URL(file, import.meta.url).href, shortCircuit: true };
  if (specifier.startsWith('k6/')) throw new Error(`the Node runner does not provide ${specifier}; run this script with k6`);
  if (/^https?:\/\//.test(specifier)) throw new Error(`remote module ${specifier}: the Node runner loads local files only`);
  return nextResolve(specifier, context);
}
