// A node:test reporter for the test runner's child processes: every event
// as one JSON line, errors already rendered, so the parent can capture a
// file's own output, follow which test is running and render the results.
import { inspect } from 'node:util';

/** @param {unknown} error */
function render(error) {
  if (error === undefined || error === null) return undefined;
  const e = /** @type {{ failureType?: string, cause?: unknown }} */ (error);
  // node:test wraps what the test threw; the cause is what the author wrote.
  const shown = e.failureType === 'testCodeFailure' && e.cause !== undefined ? e.cause : error;
  const text = typeof shown === 'string' ? shown : inspect(shown, { depth: 6, colors: false });
  // The runner's own frames say nothing about the test.
  return text
    .split('\n')
    .filter((line) => !/^\s+at .*\(?node:(internal|async_hooks)/.test(line))
    .join('\n');
}

/** @param {AsyncIterable<{ type: string, data: any }>} source */
export default async function* eventsReporter(source) {
  for await (const { type, data } of source) {
    const details = data?.details ?? {};
    yield `${JSON.stringify({
      type,
      name: data?.name,
      nesting: data?.nesting,
      file: data?.file,
      message: data?.message,
      kind: details.type,
      duration_ms: details.duration_ms,
      error: render(details.error),
      skip: data?.skip !== undefined && data.skip !== false,
      skipReason: typeof data?.skip === 'string' ? data.skip : undefined,
      todo: data?.todo !== undefined && data.todo !== false,
    })}\n`;
  }
}
