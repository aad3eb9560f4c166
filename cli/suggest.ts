// "Did you mean": the known name nearest to a mistyped one, so an unknown
// flag, command, variable or name points at the one the user most likely
// meant instead of leaving them to read a list.

/** Edit distance with adjacent transpositions counted as one edit (tagret → target). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** The candidate nearest to `word`, when it is near enough to be a typo of it (or `word` is a prefix of it). */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  let best: { name: string; d: number } | undefined;
  for (const name of candidates) {
    const d = name.toLowerCase().startsWith(w) && w.length >= 3 ? 1 : distance(w, name.toLowerCase());
    if (!best || d < best.d) best = { name, d };
  }
  return best && best.d <= Math.max(2, Math.floor(w.length / 3)) ? best.name : undefined;
}

/** `; did you mean X?` or nothing. */
export function didYouMean(word: string, candidates: readonly string[], render: (name: string) => string = (n) => n): string {
  const near = closest(word, candidates);
  return near === undefined ? '' : `; did you mean ${render(near)}?`;
}

/** The usage error for a name outside its set: the nearest one and the whole (short) list. */
export function unknownName(what: string, value: string, known: readonly string[]): string {
  return `unknown ${what} ${value}${didYouMean(value, known)} (known: ${known.join(', ')})`;
}
