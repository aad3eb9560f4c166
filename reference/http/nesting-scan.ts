// The nesting check on a body's raw bytes, chunk by chunk as they arrive
// ([wire-nesting]): one pass, no allocation, with the depth and the string
// and escape state carried from one chunk to the next, so a body that nests
// too deep is refused at the byte that crosses the bound, long before a
// parser would build it. In well-formed JSON the brackets outside strings
// are the nesting; in a body that is not JSON they count all the same, and
// either way the answer is INVALID_REQUEST.
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

export class NestingScan {
  private depth = 0;
  private inString = false;
  /** The chunk ended on a backslash inside a string, so the next chunk's first byte is escaped. */
  private escaped = false;

  constructor(readonly maxDepth: number) {}

  /** Reads the next chunk; false once the bytes so far nest deeper than maxDepth. */
  accepts(chunk: Uint8Array): boolean {
    const n = chunk.length;
    const max = this.maxDepth;
    let depth = this.depth;
    let inString = this.inString;
    let i = this.escaped ? 1 : 0;
    for (;;) {
      if (inString) {
        // Most bytes are inside strings: only a quote or a backslash matters there.
        while (i < n) {
          const c = chunk[i++]!;
          if (c === QUOTE) {
            inString = false;
            break;
          }
          if (c === BACKSLASH) i++;
        }
        if (inString) break;
      }
      if (i >= n) break;
      const c = chunk[i++]!;
      if (c === QUOTE) inString = true;
      else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
        if (++depth > max) {
          this.depth = depth;
          return false;
        }
      } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
    }
    // Past the end only when the last byte was a backslash inside a string.
    this.escaped = i > n;
    this.depth = depth;
    this.inString = inString;
    return true;
  }
}
