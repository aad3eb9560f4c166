// The route table, built from openapi.yaml's paths: the document decides which
// paths exist, which methods each accepts, and which roles each needs, so the
// server cannot drift from the contract ([wire-unknown-route]).
import { operations, type OperationEntry } from '../../contract/openapi.ts';

type Segment = { literal: string } | { param: string };

export interface PathRoute {
  template: string;
  segments: Segment[];
  /** Upper-case method → the operation it serves. */
  methods: Map<string, OperationEntry>;
  allow: string;
}

export type RouteMatch =
  | { kind: 'found'; entry: OperationEntry; rawParams: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: string }
  | { kind: 'no-route' };

function parseTemplate(template: string): Segment[] {
  return template
    .slice(1)
    .split('/')
    .map((s) => (s.startsWith('{') && s.endsWith('}') ? { param: s.slice(1, -1) } : { literal: s }));
}

function literalCount(route: PathRoute): number {
  return route.segments.filter((s) => 'literal' in s).length;
}

export class RouteTable {
  /** Routes grouped by segment count; within a group, more literal segments match first. */
  private readonly byLength = new Map<number, PathRoute[]>();
  /** Paths without parameters, found with one lookup. */
  private readonly exact = new Map<string, PathRoute>();
  readonly entries: readonly OperationEntry[];

  constructor(entries: readonly OperationEntry[] = operations()) {
    this.entries = entries;
    const byTemplate = new Map<string, PathRoute>();
    for (const entry of entries) {
      let route = byTemplate.get(entry.path);
      if (!route) {
        route = { template: entry.path, segments: parseTemplate(entry.path), methods: new Map(), allow: '' };
        byTemplate.set(entry.path, route);
      }
      route.methods.set(entry.method.toUpperCase(), entry);
    }
    for (const route of byTemplate.values()) {
      route.allow = [...route.methods.keys()].join(', ');
      if (route.segments.every((seg) => 'literal' in seg)) this.exact.set(route.template, route);
      const group = this.byLength.get(route.segments.length) ?? [];
      group.push(route);
      this.byLength.set(route.segments.length, group);
    }
    for (const group of this.byLength.values()) group.sort((a, b) => literalCount(b) - literalCount(a));
  }

  /** Matches a raw (still percent-encoded) path; parameters come back encoded. */
  match(method: string, pathname: string): RouteMatch {
    const exact = this.exact.get(pathname);
    if (exact) return this.methodOf(exact, method, {});
    if (pathname.charCodeAt(0) !== 47 /* / */) return { kind: 'no-route' };
    const parts = pathname.slice(1).split('/');
    for (const route of this.byLength.get(parts.length) ?? []) {
      const rawParams = matchSegments(route.segments, parts);
      if (rawParams) return this.methodOf(route, method, rawParams);
    }
    return { kind: 'no-route' };
  }

  private methodOf(route: PathRoute, method: string, rawParams: Record<string, string>): RouteMatch {
    const entry = route.methods.get(method);
    return entry ? { kind: 'found', entry, rawParams } : { kind: 'method-not-allowed', allow: route.allow };
  }
}

function matchSegments(segments: Segment[], parts: string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const part = parts[i]!;
    if ('literal' in seg) {
      if (seg.literal !== part) return null;
    } else {
      // An empty segment names nothing: `/v1/routes/` is no route, not a bad id.
      if (part === '') return null;
      params[seg.param] = part;
    }
  }
  return params;
}
