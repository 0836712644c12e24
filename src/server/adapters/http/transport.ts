// Sends one HTTP request for the engine: TLS options, proxy, per-request timeout, cancellation, retries with back-off
// (429 honouring Retry-After, 5xx, network errors), a cap on the body size, and redirects the outbound guard's way
// (same scheme only, no credentials to another origin, each hop's address checked).
import { setTimeout as sleep } from 'node:timers/promises';
import { OutboundRefusedError, type OutboundPolicy } from '../../outbound/guard.js';
import { guardedDispatcher, guardedRequest, type GuardedDispatcher } from '../../outbound/http.js';
import { RedirectRefusedError } from '../../outbound/redirects.js';

export type TransportOptions = {
  verifySsl: boolean;
  customCa?: string;
  proxy?: string;
  timeoutMs: number;
  maxResponseBytes: number;
  maxAttempts: number;
  retryStatuses: number[];
  baseDelayMs: number;
  maxDelaySeconds: number;
  resetHeader?: string;
  /** Where this company's calls may go (the outbound guard's policy). */
  outbound: OutboundPolicy;
};

export type OutgoingRequest = { method: string; url: string; headers: Record<string, string>; body?: string };

export type RawResponse = { url: string; status: number; headers: Record<string, string>; setCookies: string[]; body: Buffer };

/** A request that could not get an answer (DNS, refused, TLS, timeout, size cap); `cause` keeps the low-level error. */
export class TransportError extends Error {
  constructor(
    message: string,
    readonly kind: 'network' | 'timeout' | 'too_large' | 'redirect' | 'refused' | 'cancelled',
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const maximumRedirects = 5;

/**
 * The guarded undici dispatcher for a connection's TLS and proxy settings; close it when the fetch ends. With
 * `singleConnection` every request goes over one kept-alive connection (NTLM authenticates the connection).
 */
export function createDispatcher(options: Pick<TransportOptions, 'verifySsl' | 'customCa' | 'proxy' | 'outbound'>, singleConnection = false): GuardedDispatcher {
  return guardedDispatcher(options, options.outbound, { keepAliveTimeout: 10_000, ...(singleConnection && { connections: 1 }) });
}

/** Seconds to wait before retrying: Retry-After (seconds or HTTP date), else the rate-limit reset header, else null. */
export function retryDelaySeconds(headers: Record<string, string>, resetHeader: string | undefined, now = Date.now()): number | null {
  const retryAfter = headers['retry-after'];
  if (retryAfter !== undefined && retryAfter.trim() !== '') {
    if (/^\d+(\.\d+)?$/.test(retryAfter.trim())) return Number(retryAfter.trim());
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, (date - now) / 1000);
  }
  const reset = resetHeader ? headers[resetHeader.toLowerCase()] : undefined;
  if (reset && /^\d+$/.test(reset.trim())) return Math.max(0, Number(reset) - now / 1000);
  return null;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): { headers: Record<string, string>; setCookies: string[] } {
  const flat: Record<string, string> = {};
  let setCookies: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    if (key === 'set-cookie') setCookies = Array.isArray(value) ? value : [value];
    flat[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { headers: flat, setCookies };
}

function isAbort(error: unknown): boolean {
  const name = (error as { name?: string })?.name;
  return name === 'AbortError' || name === 'TimeoutError';
}

async function sendOnce(outgoing: OutgoingRequest, dispatcher: GuardedDispatcher, options: TransportOptions, signal: AbortSignal): Promise<RawResponse> {
  // One controller per request, aborted by the fetch's signal or the per-request timer; both are released in
  // `finally` so a long discovery does not pile up listeners on its signal.
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  const cancel = () => controller.abort();
  if (signal.aborted) controller.abort();
  else signal.addEventListener('abort', cancel, { once: true });
  let url = outgoing.url;
  try {
    const guarded = await guardedRequest(outgoing, dispatcher, { signal: controller.signal, maxRedirects: maximumRedirects });
    const answer = guarded.answer;
    url = guarded.url;
    const { headers, setCookies } = flattenHeaders(answer.headers);
    const declared = Number(headers['content-length']);
    if (Number.isFinite(declared) && declared > options.maxResponseBytes) {
      discard(answer.body);
      throw new TransportError(`the answer of ${new URL(url).pathname} is ${declared} bytes, over the ${options.maxResponseBytes}-byte cap`, 'too_large');
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of answer.body) {
      size += (chunk as Buffer).length;
      if (size > options.maxResponseBytes) {
        discard(answer.body);
        throw new TransportError(`the answer of ${new URL(url).pathname} exceeds the ${options.maxResponseBytes}-byte cap`, 'too_large');
      }
      chunks.push(chunk as Buffer);
    }
    return { url, status: answer.statusCode, headers, setCookies, body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks) };
  } catch (error) {
    if (error instanceof TransportError) throw error;
    if (error instanceof RedirectRefusedError) throw new TransportError(error.message, 'redirect', { cause: error });
    const refusal = refusalIn(error);
    if (refusal) throw new TransportError(refusal.message, 'refused', { cause: refusal });
    const path = safePath(url);
    if (signal.aborted) throw new TransportError(`the fetch was cancelled during ${path}`, 'cancelled', { cause: error });
    if (timedOut || isAbort(error)) throw new TransportError(`${path} did not answer within ${options.timeoutMs / 1000} s`, 'timeout', { cause: error });
    throw new TransportError(`${path}: ${(error as Error).message}`, 'network', { cause: error });
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', cancel);
  }
}

/** The guard's refusal behind a failed request (undici hands the connector's error back, sometimes as a cause). */
function refusalIn(error: unknown): OutboundRefusedError | null {
  for (let current = error; current; current = (current as { cause?: unknown }).cause) if (current instanceof OutboundRefusedError) return current;
  return null;
}

/** Drops a body we refuse to read; destroying emits an abort error nobody else listens to. */
function discard(body: NodeJS.ReadableStream & { destroy: () => void }): void {
  body.on('error', () => undefined);
  body.destroy();
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return 'the request';
  }
}

/**
 * Sends a request, retrying 429, the configured 5xx statuses and network errors or timeouts with exponential
 * back-off (Retry-After wins when present), up to `maxAttempts`. The last answer is returned whatever its status.
 */
export async function send(outgoing: OutgoingRequest, dispatcher: GuardedDispatcher, options: TransportOptions, signal: AbortSignal, warn?: (message: string) => void): Promise<RawResponse> {
  for (let attempt = 1; ; attempt += 1) {
    let delaySeconds: number;
    try {
      const response = await sendOnce(outgoing, dispatcher, options, signal);
      if (!options.retryStatuses.includes(response.status) || attempt >= options.maxAttempts) return response;
      const asked = response.status === 429 || response.status === 503 ? retryDelaySeconds(response.headers, options.resetHeader) : null;
      if (asked !== null && asked > options.maxDelaySeconds) return response;
      delaySeconds = asked ?? (options.baseDelayMs * 2 ** (attempt - 1)) / 1000;
      warn?.(`${response.status} from ${safePath(response.url)}; retrying in ${delaySeconds.toFixed(1)} s (attempt ${attempt + 1} of ${options.maxAttempts})`);
    } catch (error) {
      const retryable = error instanceof TransportError && (error.kind === 'network' || error.kind === 'timeout');
      if (!retryable || attempt >= options.maxAttempts) throw error;
      delaySeconds = (options.baseDelayMs * 2 ** (attempt - 1)) / 1000;
    }
    try {
      await sleep(delaySeconds * 1000, undefined, { signal });
    } catch (error) {
      throw new TransportError('the fetch was cancelled while waiting to retry', 'cancelled', { cause: error });
    }
  }
}
