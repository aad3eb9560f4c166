// How the directory turns one executor call into a typed result before a
// watch is open: transport failures, HTTP statuses and body reads each map to
// exactly one outcome, and each call is a single attempt.
import { canceledBy, DirectoryError, directoryError, invalidInput } from '../outcome.ts';
import type { KubernetesRequest, KubernetesRequestExecutor, KubernetesResponse, ResponseBody } from './executor.ts';

/** The outcome of a non-200 status before the watch opens. */
export function classifyStatus(status: number): DirectoryError {
  if (status === 401) return directoryError('unauthorized', 'http_unauthorized');
  if (status === 403) return directoryError('unauthorized', 'http_forbidden');
  if (status === 410) return directoryError('stale', 'resource_version_expired');
  if (status === 429) return directoryError('unavailable', 'rate_limited');
  if (status >= 500 && status <= 599) return directoryError('unavailable', 'provider_unavailable');
  return invalidInput();
}

function destroyQuietly(body: ResponseBody | null | undefined): void {
  try {
    body?.destroy();
  } catch {
    // A body that fails to close has nothing more to tell us.
  }
}

/**
 * Executes one request and returns a 200 response with a body; any other
 * result is a typed error and the body, if any, is already destroyed.
 * `callerSignal` decides whether a transport failure was a cancellation.
 */
export async function executeOnce(
  executor: KubernetesRequestExecutor,
  request: KubernetesRequest,
  signal: AbortSignal,
  callerSignal: AbortSignal | undefined = signal,
): Promise<KubernetesResponse & { body: ResponseBody }> {
  let response: KubernetesResponse;
  try {
    response = await executor.execute(request, signal);
  } catch {
    if (callerSignal?.aborted) throw canceledBy(callerSignal);
    throw directoryError('unavailable', 'provider_unavailable');
  }
  if (typeof response !== 'object' || response === null || !Number.isInteger(response.statusCode)) throw invalidInput();
  if (response.statusCode !== 200) {
    destroyQuietly(response.body);
    throw classifyStatus(response.statusCode);
  }
  if (!response.body) throw invalidInput();
  return response as KubernetesResponse & { body: ResponseBody };
}

/** Reads a whole list body within `maxBytes`; always destroys the body. */
export async function readListBody(body: ResponseBody, maxBytes: number, signal: AbortSignal | undefined): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of body) {
      total += chunk.byteLength;
      if (total > maxBytes) throw invalidInput();
      chunks.push(Buffer.from(chunk));
    }
  } catch (error) {
    if (DirectoryError.is(error)) throw error;
    if (signal?.aborted) throw canceledBy(signal);
    throw directoryError('unavailable', 'provider_unavailable');
  } finally {
    destroyQuietly(body);
  }
  return Buffer.concat(chunks);
}

export { destroyQuietly };
