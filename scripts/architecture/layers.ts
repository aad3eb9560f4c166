// The layer rules of the repository and the checks that hold the import
// graph to them: which top-level folder may import which, and no cycle
// between files or between folders at any depth. Each problem names the
// import that breaks the rule, so a failure says what to change.
import type { ImportEdge, ImportGraph } from './import-graph.ts';
import { folderOf } from './import-graph.ts';

/**
 * Bottom up: the contract; the reference on it; the client kit on it; the
 * harness parts and the instance directory on the contract and the client
 * kit, never on the reference; reports renders their documents; certify runs
 * the harness parts; cli composes everything. A folder may always import
 * itself.
 */
export const LAYERS: Readonly<Record<string, readonly string[]>> = {
  contract: [],
  reference: ['contract'],
  client: ['contract'],
  conformance: ['contract', 'client'],
  properties: ['contract', 'client'],
  load: ['contract', 'client'],
  directory: ['contract', 'client'],
  reports: ['contract', 'client', 'conformance', 'properties', 'load'],
  certify: ['contract', 'client', 'conformance', 'properties', 'load', 'reports'],
  cli: ['contract', 'client', 'reference', 'directory', 'conformance', 'properties', 'load', 'reports', 'certify'],
  bin: ['cli'],
  // Developer scripts (test runner, benchmarks) stand outside the product.
  scripts: ['contract', 'client', 'reference', 'directory', 'conformance', 'properties', 'load', 'reports', 'certify', 'cli'],
};

/**
 * Layers inside a part, by its subfolders ('.' is the files at the part's
 * top). In the reference, the domain rules know no storage, the stores know
 * no HTTP, what assembles a registry (variants, the embedded reference) sits
 * above all three, and what breaks one on purpose (defects) above that.
 */
export const SUB_LAYERS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  reference: {
    domain: [],
    store: ['domain'],
    http: ['domain', 'store'],
    variant: ['domain', 'store', 'http'],
    '.': ['domain', 'store', 'http', 'variant'],
    defects: ['domain', 'store', 'http', 'variant', '.'],
  },
};

/**
 * Folders no product code may reach, whatever the layers allow: the
 * deliberate defects are for the tests, the developer scripts and the one
 * file of the command line's development path that loads them by name. The
 * package ships none of them.
 */
export const DEVELOPMENT_ONLY: ReadonlyArray<{ folder: string; importers: readonly string[] }> = [
  { folder: 'reference/defects/', importers: ['cli/defect-flag.ts'] },
];

export function developmentOnlyViolations(graph: ImportGraph, rules = DEVELOPMENT_ONLY): string[] {
  const problems: string[] = [];
  for (const [file, edges] of graph) {
    if (isTestFile(file) || topFolder(file) === 'scripts') continue;
    for (const rule of rules) {
      if (file.startsWith(rule.folder) || rule.importers.includes(file)) continue;
      for (const edge of edges.filter((e) => e.to.startsWith(rule.folder)))
        problems.push(
          `development only: ${describeEdge(edge)}: only ${[...rule.importers, 'tests', 'scripts'].join(', ')} may import ${rule.folder}`,
        );
    }
  }
  return problems;
}

/** Only a folder named `test` holds tests and what only tests use. */
const TEST_DIR = 'test';

/** Tests and their support sit above what they test: they may import anything. */
export function isTestFile(file: string): boolean {
  return /\.test\.[cm]?[jt]s$/.test(file) || file.split('/').slice(0, -1).includes(TEST_DIR);
}

export function topFolder(file: string): string {
  return file.includes('/') ? file.slice(0, file.indexOf('/')) : '.';
}

/** The subfolder of its part a file sits in, or '.' at the part's top. */
function subFolder(file: string): string {
  const segments = file.split('/');
  return segments.length > 2 ? segments[1]! : '.';
}

const describeEdge = (e: ImportEdge) => `${e.from} imports '${e.specifier}' (${e.to})`;

export function layerViolations(
  graph: ImportGraph,
  layers: Readonly<Record<string, readonly string[]>> = LAYERS,
  subLayers: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = SUB_LAYERS,
): string[] {
  const problems: string[] = [];
  for (const [file, edges] of graph) {
    if (isTestFile(file)) continue;
    const from = topFolder(file);
    const allowed = layers[from];
    if (!allowed) {
      if (edges.length > 0) problems.push(`${file}: folder ${from} has no place in the layer table`);
      continue;
    }
    const inner = subLayers[from];
    const fromSub = subFolder(file);
    const allowedInside = inner?.[fromSub];
    if (inner && !allowedInside) problems.push(`${file}: folder ${from}/${fromSub} has no place in ${from}'s layer table`);
    for (const edge of edges) {
      const to = topFolder(edge.to);
      if (to !== from && !allowed.includes(to))
        problems.push(`layer: ${describeEdge(edge)}: ${from} may import only ${[from, ...allowed].join(', ')}`);
      const toSub = subFolder(edge.to);
      if (to === from && allowedInside && toSub !== fromSub && !allowedInside.includes(toSub)) {
        const may = [fromSub, ...allowedInside].map((f) => `${from}/${f}`).join(', ');
        problems.push(`layer: ${describeEdge(edge)}: ${from}/${fromSub} may import only ${may}`);
      }
    }
  }
  return problems;
}

/**
 * The test layout: a test file sits in a folder named `test`, beside the code
 * it tests; what only tests use (support, fakes, fixtures) sits under such a
 * folder too; and no product file imports from one (developer scripts,
 * which stand outside the product, may).
 */
export function layoutViolations(graph: ImportGraph): string[] {
  const problems: string[] = [];
  for (const [file, edges] of graph) {
    const folders = file.split('/').slice(0, -1);
    if (/\.test\.[cm]?[jt]s$/.test(file) && folders.at(-1) !== TEST_DIR) problems.push(`layout: ${file} is a test outside a test/ folder`);
    const stray = folders.find((f) => /^(testing|testkit|fixtures?|behaviour)$/.test(f));
    if (stray && !folders.includes(TEST_DIR)) problems.push(`layout: ${file} sits in ${stray}/, test support outside a test/ folder`);
    if (isTestFile(file) || topFolder(file) === 'scripts') continue;
    for (const edge of edges) if (isTestFile(edge.to)) problems.push(`layout: ${describeEdge(edge)}: a product file imports test support`);
  }
  return problems;
}

/** Strongly connected components with more than one node, or a node importing itself (Tarjan). */
function cyclicComponents(nodes: readonly string[], next: (node: string) => readonly string[]): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || next(v).includes(v)) found.push(component.sort());
    }
  };
  for (const v of nodes) if (!indexOf.has(v)) visit(v);
  return found;
}

/** One closed path through a component, from its first node back to it. */
function cyclePath(component: readonly string[], next: (node: string) => readonly string[]): string[] {
  const members = new Set(component);
  const start = component[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of next(v)) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let at: string | undefined = v; at !== undefined && at !== start; at = cameFrom.get(at)) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!cameFrom.has(w)) {
        cameFrom.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

interface NodeGraph {
  nodes: string[];
  next(node: string): string[];
  /** One import that makes the edge from → to. */
  witness(from: string, to: string): ImportEdge;
}

function collapse(graph: ImportGraph, nodeOf: (file: string) => string | null): NodeGraph {
  const out = new Map<string, Map<string, ImportEdge>>();
  for (const [file, edges] of graph) {
    const from = nodeOf(file);
    if (from === null) continue;
    const targets = out.get(from) ?? new Map<string, ImportEdge>();
    out.set(from, targets);
    for (const edge of edges) {
      const to = graph.has(edge.to) ? nodeOf(edge.to) : null;
      if (to !== null && !targets.has(to)) targets.set(to, edge);
    }
  }
  return {
    nodes: [...out.keys()].sort(),
    next: (node) => [...(out.get(node)?.keys() ?? [])],
    witness: (from, to) => out.get(from)!.get(to)!,
  };
}

function cycleProblems(kind: string, g: NodeGraph, selfEdges: boolean): string[] {
  const next = selfEdges ? g.next : (node: string) => g.next(node).filter((n) => n !== node);
  return cyclicComponents(g.nodes, next).map((component) => {
    const path = cyclePath(component, next);
    const imports = path.slice(0, -1).map((from, i) => describeEdge(g.witness(from, path[i + 1]!)));
    const among = component.length > path.length - 1 ? ` (one of the cycles among ${component.join(', ')})` : '';
    return `${kind} cycle: ${path.join(' -> ')}${among}\n    ${imports.join('\n    ')}`;
  });
}

export function fileCycles(graph: ImportGraph): string[] {
  return cycleProblems(
    'file',
    collapse(graph, (file) => file),
    true,
  );
}

/** The folder of `file` cut to its first `depth` segments; null when it sits higher up. */
function folderAtDepth(file: string, depth: number): string | null {
  const segments = folderOf(file).split('/');
  return segments.length < depth ? null : segments.slice(0, depth).join('/');
}

/**
 * Cycles between sibling folders, at every depth: between top-level folders,
 * then between the subfolders of one folder, and so on (a folder holds its
 * subfolders, so it is never its own subfolder's sibling). Tests are left
 * out: a test sits above what it tests wherever its file lives.
 */
export function folderCycles(graph: ImportGraph): string[] {
  const depths = Math.max(1, ...[...graph.keys()].map((f) => folderOf(f).split('/').length));
  const problems: string[] = [];
  for (let depth = 1; depth <= depths; depth++) {
    problems.push(
      ...cycleProblems(
        `folder (depth ${depth})`,
        collapse(graph, (file) => (isTestFile(file) ? null : folderAtDepth(file, depth))),
        false,
      ),
    );
  }
  return problems;
}
