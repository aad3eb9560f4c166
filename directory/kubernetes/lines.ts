// Newline-delimited framing of a watch body, with a hard bound on one line.
// A line is never assembled beyond the bound, so an oversized event costs at
// most `maxBytes` of memory before the watch ends.
import { DirectoryError, directoryError } from '../outcome.ts';

const NEWLINE = 0x0a;

function decodeLine(parts: Buffer[]): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(parts));
  } catch {
    throw directoryError('watch_interrupted', 'watch_event_invalid');
  }
}

/**
 * Yields each line (without its newline), then the final line if it had no
 * newline. A line over `maxBytes` ends with watch_event_too_large; a read
 * failure with stream_eof. The caller decides what a clean end means.
 */
export async function* watchLines(body: AsyncIterable<Uint8Array>, maxBytes: number): AsyncGenerator<string, void, undefined> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const tooLarge = (): DirectoryError => directoryError('watch_interrupted', 'watch_event_too_large');
  const iterator = body[Symbol.asyncIterator]();
  for (;;) {
    let step: IteratorResult<Uint8Array>;
    try {
      step = await iterator.next();
    } catch {
      throw directoryError('watch_interrupted', 'stream_eof');
    }
    if (step.done) break;
    let chunk = Buffer.from(step.value.buffer, step.value.byteOffset, step.value.byteLength);
    for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE)) {
      if (pendingBytes + at > maxBytes) throw tooLarge();
      pending.push(chunk.subarray(0, at));
      const line = decodeLine(pending);
      pending = [];
      pendingBytes = 0;
      chunk = chunk.subarray(at + 1);
      yield line;
    }
    pendingBytes += chunk.byteLength;
    if (pendingBytes > maxBytes) throw tooLarge();
    if (chunk.byteLength > 0) pending.push(Buffer.from(chunk));
  }
  if (pendingBytes > 0) yield decodeLine(pending);
}
