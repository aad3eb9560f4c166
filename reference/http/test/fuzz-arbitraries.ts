// Generators of bad input for the fuzz test: structural mutations of a valid
// body, text that is not JSON, path segments that name nothing, query values
// of every wrong kind, and header values that are not a usable token.
import fc from 'fast-check';

type Container = Record<string, unknown> | unknown[];

export type Mutation =
  | { kind: 'add'; at: number; key: string; value: unknown }
  | { kind: 'drop'; at: number; key: number }
  | { kind: 'retype'; at: number; key: number; value: unknown }
  | { kind: 'replace'; value: unknown };

const wrongValue = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 20 }),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
  fc.constantFrom(-1, 2 ** 53, 4294967296, 1.5, '', ' padded ', 'SHA256:ABC', 'ctype_', '2026-11-30T12:00:00Z'),
);

/** Strings far beyond every bound, some beyond the body limit. */
export const hugeString = fc
  .tuple(fc.constantFrom('a', 'é', '\u0000', '"', '\\', '\u{1F600}', '<script>'), fc.integer({ min: 300, max: 40_000 }))
  .map(([unit, n]) => unit.repeat(Math.ceil(n / unit.length)));

const unexpectedKey = fc.oneof(
  fc.constantFrom(
    'unexpected',
    'tenant_id',
    'active_assignments',
    'circuit',
    'password',
    'replica_id',
    'endpoint',
    '__proto__',
    'constructor',
  ),
  fc.string({ maxLength: 12 }),
);

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), at: fc.nat(), key: unexpectedKey, value: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({ kind: fc.constant('drop' as const), at: fc.nat(), key: fc.nat() }),
  fc.record({
    kind: fc.constant('retype' as const),
    at: fc.nat(),
    key: fc.nat(),
    value: fc.oneof({ weight: 4, arbitrary: wrongValue }, { weight: 1, arbitrary: hugeString }),
  }),
  fc.record({ kind: fc.constant('replace' as const), value: fc.jsonValue({ maxDepth: 3 }) }),
);

function containers(value: unknown, out: Container[] = []): Container[] {
  if (value !== null && typeof value === 'object') {
    out.push(value as Container);
    for (const v of Object.values(value)) containers(v, out);
  }
  return out;
}

/** Sets an own, enumerable member even for names such as __proto__. */
function setMember(target: Container, key: string | number, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A copy of `body` with one mutation applied somewhere inside it. */
export function mutate(body: unknown, m: Mutation): unknown {
  if (m.kind === 'replace') return m.value;
  const copy = structuredClone(body);
  const all = containers(copy);
  const target = all[m.at % all.length]!;
  const keys = Array.isArray(target) ? target.map((_, i) => i) : Object.keys(target);
  if (m.kind === 'add') {
    if (Array.isArray(target)) target.push(m.value);
    else setMember(target, m.key, m.value);
  } else if (keys.length > 0) {
    const key = keys[m.key % keys.length]!;
    if (m.kind === 'drop') {
      if (Array.isArray(target)) target.splice(key as number, 1);
      else delete target[key as string];
    } else setMember(target, key, m.value);
  }
  return copy;
}

/** Text that JSON.parse refuses: truncations of a valid body, or arbitrary strings. */
export function malformedJson(validText: string): fc.Arbitrary<string> {
  return fc
    .oneof(
      fc.nat({ max: Math.max(0, validText.length - 1) }).map((n) => validText.slice(0, n)),
      fc.string({ maxLength: 200, unit: 'binary' }),
      fc.constantFrom('{', '[', '{"a":}', "{'a':1}", '{"a":1,}', 'NaN', 'undefined', '{"a":01}', '\u0000', '{"a":"\\x"}'),
    )
    .filter((text) => {
      try {
        JSON.parse(text);
        return false;
      } catch {
        return true;
      }
    });
}

/** A path segment that is no valid value of any parameter it could fill, sent as it is. */
export const badSegment: fc.Arbitrary<string> = fc.oneof(
  fc.string({ minLength: 1, maxLength: 300, unit: 'binary' }).map(encodeURIComponent),
  fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '..', '.', '%2F', 'ctype_', 'cver_%20x', 'crepl_' + 'x'.repeat(121), '-x', 'a%0Ab'),
);

/** Query values of the wrong kind for the catalog, cursors of every shape included. */
export function catalogQuery(revision: number): fc.Arbitrary<Record<string, string>> {
  const anyText = fc.string({ maxLength: 300, unit: 'binary' });
  const cursor = fc.oneof(
    anyText,
    fc.constantFrom(
      `${revision}:`,
      `${revision + 1}:cap.x`,
      `${revision}:cap.x`,
      ':cap.x',
      '-1:x',
      '1e3:x',
      `${revision}`,
      'x'.repeat(1025),
    ),
    fc.tuple(fc.nat(), anyText).map(([n, s]) => `${n}:${s}`),
  );
  return fc.record(
    {
      capability_id: fc.oneof(anyText, fc.constant('cap.fz.run')),
      text: fc.oneof(anyText, fc.constant('x'.repeat(257))),
      profile: anyText,
      limit: fc.oneof(fc.integer({ min: -5, max: 1_000 }).map(String), anyText, fc.constantFrom('1.5', '1e2', '0x10', '9007199254740993')),
      cursor,
      unbound: fc.oneof(fc.constantFrom('true', 'false', 'TRUE', '1', ''), anyText),
      'x-unknown': anyText,
    },
    { requiredKeys: [] },
  );
}

/** Authorization header values that carry no valid token. */
export const garbageAuthorization: fc.Arbitrary<string> = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9._~+/=-]{0,400}$/).map((s) => `Bearer ${s}`),
  fc.stringMatching(/^[!-~]{1,200}$/),
  fc.constantFrom('Bearer', 'Basic YTpi', 'bearer a.b.c', 'Bearer ..', 'Bearer eyJhbGciOiJub25lIn0.e30.'),
);
