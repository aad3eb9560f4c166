// Work that goes to a registry a few items at a time, answers kept in the
// order of the items asked about: the runner's reads and writes after a load
// run, the nemesis sweep's, and the Node runner's requests of an http.batch.

/** `fn` over every item, at most `limit` at once; the results in the items' order. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}
