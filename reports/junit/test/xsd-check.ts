// A small structural validator for JUnit XML against the rules of an XSD
// read from the schema file itself (no XML schema package is installed): for
// each element the schema declares, which attributes it may carry and which
// are required, which child elements it may hold, whether it may hold text,
// and the patterns of attribute simple types (SUREFIRE_TIME). It covers what
// the junit-10 schema uses — element refs, inline and named complex types,
// mixed content, xs:string and pattern simple types — not XSD at large; it
// does not check the order or count of children, which that schema leaves
// free (choice, unbounded) everywhere but <testsuites>, whose only child is
// <testsuite>.
import { readFileSync } from 'node:fs';

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (s: string) => s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, e: string) => (e[0] === '#' ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : (ENTITIES[e] ?? m)));

/** Parses well-formed XML of plain elements, attributes, text, comments and a declaration; throws on anything malformed. */
export function parseXml(xml: string): XmlElement {
  const token = /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<\/([^\s>]+)\s*>|<([^\s/>!?]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/gy;
  const root: XmlElement = { name: '#document', attrs: {}, children: [], text: '' };
  const stack = [root];
  let m: RegExpExecArray | null;
  let at = 0;
  while ((m = token.exec(xml)) !== null) {
    at = token.lastIndex;
    const top = stack[stack.length - 1]!;
    if (m[1]) {
      if (top.name !== m[1]) throw new Error(`</${m[1]}> closes <${top.name}>`);
      stack.pop();
    } else if (m[2]) {
      const attrs: Record<string, string> = {};
      for (const a of m[3]!.matchAll(/([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
        if (a[1]! in attrs) throw new Error(`<${m[2]}> repeats attribute ${a[1]}`);
        attrs[a[1]!] = decode(a[2] ?? a[3] ?? '');
      }
      const el: XmlElement = { name: m[2], attrs, children: [], text: '' };
      top.children.push(el);
      if (!m[4]) stack.push(el);
    } else if (m[5]) {
      if (m[5].includes('&') && /&(?!(#x[0-9a-f]+|#[0-9]+|[a-z]+);)/i.test(m[5])) throw new Error(`a bare & in the text of <${top.name}>`);
      top.text += decode(m[5]);
    }
  }
  if (at !== xml.length) throw new Error(`not well-formed at offset ${at}: ${JSON.stringify(xml.slice(at, at + 40))}`);
  if (stack.length !== 1) throw new Error(`<${stack[stack.length - 1]!.name}> is never closed`);
  const elements = root.children;
  if (elements.length !== 1 || root.text.trim() !== '') throw new Error('a document has exactly one root element');
  return elements[0]!;
}

interface ElementRule {
  attributes: Map<string, { required: boolean; pattern: RegExp | null }>;
  children: Set<string>;
  text: boolean;
}

const descendants = (e: XmlElement, name: string): XmlElement[] => e.children.flatMap((c) => [...(c.name === name ? [c] : []), ...descendants(c, name)]);

/** The rules of every top-level element of the schema. */
export function schemaRules(xsdPath: string): Map<string, ElementRule> {
  const schema = parseXml(readFileSync(xsdPath, 'utf8'));
  const patterns = new Map<string, RegExp>();
  for (const t of schema.children.filter((c) => c.name === 'xs:simpleType')) {
    const p = descendants(t, 'xs:pattern')[0]?.attrs['value'];
    if (p !== undefined) patterns.set(t.attrs['name']!, new RegExp(`^(?:${p})$`));
  }
  const named = new Map(schema.children.filter((c) => c.name === 'xs:complexType').map((c) => [c.attrs['name']!, c]));
  const ruleOf = (complex: XmlElement): ElementRule => ({
    attributes: new Map(descendants(complex, 'xs:attribute').map((a) => [a.attrs['name']!, { required: a.attrs['use'] === 'required', pattern: patterns.get(a.attrs['type'] ?? '') ?? null }])),
    children: new Set(descendants(complex, 'xs:element').map((e) => e.attrs['ref'] ?? e.attrs['name']!)),
    text: complex.attrs['mixed'] === 'true',
  });
  const rules = new Map<string, ElementRule>();
  for (const e of schema.children.filter((c) => c.name === 'xs:element')) {
    const type = e.attrs['type'];
    const inline = e.children.find((c) => c.name === 'xs:complexType');
    if (inline) rules.set(e.attrs['name']!, ruleOf(inline));
    else if (type === 'xs:string') rules.set(e.attrs['name']!, { attributes: new Map(), children: new Set(), text: true });
    else if (type && named.has(type)) rules.set(e.attrs['name']!, ruleOf(named.get(type)!));
    else throw new Error(`schema element ${e.attrs['name']} has a type this checker does not know: ${type}`);
  }
  return rules;
}

/** Every way the document breaks the schema's rules, with the path of the element; empty when it holds. */
export function schemaProblems(doc: XmlElement, rules: Map<string, ElementRule>, root = 'testsuites'): string[] {
  const problems: string[] = [];
  if (doc.name !== root) problems.push(`the root is <${doc.name}>, not <${root}>`);
  const visit = (e: XmlElement, path: string) => {
    const rule = rules.get(e.name);
    if (!rule) return problems.push(`${path}: the schema has no element <${e.name}>`);
    for (const [name, value] of Object.entries(e.attrs)) {
      const a = rule.attributes.get(name);
      if (!a) problems.push(`${path}: attribute ${name} is not allowed`);
      else if (a.pattern && !a.pattern.test(value)) problems.push(`${path}: ${name}="${value}" does not match its type's pattern`);
    }
    for (const [name, a] of rule.attributes) if (a.required && !(name in e.attrs)) problems.push(`${path}: required attribute ${name} is missing`);
    if (!rule.text && e.text.trim() !== '') problems.push(`${path}: text is not allowed here`);
    e.children.forEach((c, i) => {
      if (!rule.children.has(c.name)) problems.push(`${path}: <${c.name}> is not allowed inside <${e.name}>`);
      visit(c, `${path}/${c.name}[${i}]`);
    });
  };
  visit(doc, doc.name);
  return problems;
}
