// Reads a JUnit file into plain elements, for the tests' assertions about
// what it holds (totals, names, times). Whether a file is valid JUnit is not
// this reader's question: junit-xsd.ts asks libxml2's XSD engine.

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, e: string) =>
    e[0] === '#' ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : (ENTITIES[e] ?? m),
  );

/** Parses well-formed XML of plain elements, attributes, text, comments and a declaration; throws on anything malformed. */
export function parseXml(xml: string): XmlElement {
  const token =
    /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<\/([^\s>]+)\s*>|<([^\s/>!?]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/gy;
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
