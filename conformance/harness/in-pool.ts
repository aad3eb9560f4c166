// Work on a list, at most `width` items at once, in order. Once `stop`
// aborts no further item is started; those already started finish.

export async function inPool<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>, stop?: AbortSignal): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !stop?.aborted) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, worker));
}
