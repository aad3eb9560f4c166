// The common forms of a size literal in a case: a number that a registry
// with other legal limits (spec.md [limits-declared]) could refuse, written
// where the case should derive it from ctx.limits (harness/sizes.ts). Found
// by pattern, line by line; a line that must keep its number says why in a
// `// lint-size: <reason>` comment.

export interface SizeLiteral {
  line: number;
  message: string;
}

const ALLOWED = /\/\/\s*lint-size:\s*\S/;
const num = (text: string) => Number(text.replace(/_/g, ''));

/** Each pattern names what it finds and the largest literal every legal registry accepts there. */
const PATTERNS: ReadonlyArray<{ re: RegExp; largestLegal: number; what: string }> = [
  // A page size or lease-expiry batch: max_page_size and max_expiry_batch may be 1.
  // (`limit` first in an object literal, or in a query; an admission scope's `limit` follows its kind and key.)
  {
    re: /(?:\{\s*|query:\s*\{[^}]*\b)limit:\s*([0-9][0-9_]*)\b/g,
    largestLegal: 1,
    what: 'a page size or expiry batch; use pageLimit or walkLimits of harness/sizes.ts',
  },
  // A byte size built by repetition: max_capability_bytes may be 2048.
  { re: /\.repeat\(\s*([0-9][0-9_]*)\s*\)/g, largestLegal: 2047, what: 'a byte size; derive it from ctx.limits' },
  // A list as long as a batch: max_body_bytes may hold fewer items, max_batch_items may be 1000.
  { re: /\{\s*length:\s*([0-9][0-9_]*)\s*\}/g, largestLegal: 999, what: 'a list as long as a batch; derive it from ctx.limits' },
];

/** A fixed-length list of capabilities put into one version: max_capabilities_per_version may be 1. */
const CAPABILITY_LIST = /Array\.from\(\{\s*length:\s*([0-9][0-9_]*)\s*\}[^\n]*\.(?:fx|build)\.capability\(/;
const SPREAD_OR_CHECKED = /\bspreadCatalog\(|max_capabilities_per_version/;

export function sizeLiterals(source: string): SizeLiteral[] {
  const out: SizeLiteral[] = [];
  const spreads = SPREAD_OR_CHECKED.test(source);
  source.split('\n').forEach((text, i) => {
    if (ALLOWED.test(text)) return;
    for (const { re, largestLegal, what } of PATTERNS) {
      for (const m of text.matchAll(re)) {
        if (num(m[1]!) > largestLegal) out.push({ line: i + 1, message: `${m[0]} on line ${i + 1}: ${what}` });
      }
    }
    const list = CAPABILITY_LIST.exec(text);
    if (list && num(list[1]!) > 1 && !spreads) {
      out.push({
        line: i + 1,
        message: `${num(list[1]!)} capabilities on line ${i + 1} without spreadCatalog or a max_capabilities_per_version check`,
      });
    }
  });
  return out;
}
