import { OutboundRefusedError } from '../outbound/guard.js';
import type { ConnectivityResult } from './engine.js';

const tlsCodes = /^(CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(GET_ISSUER_CERT|VERIFY_LEAF_SIGNATURE)|ERR_TLS_|ERR_SSL_|EPROTO)/;

function errorCode(error: unknown): string {
  const candidate = error as { code?: string; cause?: { code?: string }; name?: string };
  return candidate?.code ?? candidate?.cause?.code ?? candidate?.name ?? '';
}

/**
 * Turns a network error into a precise failure: DNS, refused, TLS or timeout, naming the target.
 * Before: `Error: getaddrinfo ENOTFOUND api.example.com`; after: `{ok: false, reason: 'dns', detail: 'api.example.com does not resolve (DNS)'}`.
 */
export function classifyNetworkError(error: unknown, target: string): ConnectivityResult {
  // The outbound guard's refusal names why (a metadata address, loopback not allowed): shown as it is.
  for (let current = error; current; current = (current as { cause?: unknown }).cause) {
    if (current instanceof OutboundRefusedError) return { ok: false, reason: 'refused', detail: current.message };
  }
  const code = errorCode(error);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { ok: false, reason: 'dns', detail: `${target} does not resolve (DNS lookup failed).` };
  if (code === 'ECONNREFUSED') return { ok: false, reason: 'refused', detail: `${target} refused the connection: nothing listens there or a firewall blocks it.` };
  if (code === 'ECONNRESET') return { ok: false, reason: 'refused', detail: `${target} closed the connection unexpectedly.` };
  if (tlsCodes.test(code)) {
    return { ok: false, reason: 'tls', detail: `TLS with ${target} failed (${code}): add the issuing CA as a custom CA, or turn off certificate verification for testing.` };
  }
  if (code === 'ETIMEDOUT' || code === 'TimeoutError' || code === 'AbortError' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT') {
    return { ok: false, reason: 'timeout', detail: `${target} did not answer in time.` };
  }
  return { ok: false, reason: 'protocol', detail: `Could not talk to ${target}: ${(error as Error)?.message ?? String(error)}` };
}

/** The failure for an HTTP status that means the credentials or their rights are wrong. */
export function classifyHttpStatus(status: number, host: string, vendorMessage = ''): ConnectivityResult | null {
  const suffix = vendorMessage ? `: ${vendorMessage.slice(0, 200)}` : '';
  if (status === 401) return { ok: false, reason: 'unauthorized', detail: `401 from ${host}: the credentials were rejected${suffix}` };
  if (status === 403) return { ok: false, reason: 'forbidden', detail: `403 from ${host}: the credentials lack the required permission or scope${suffix}` };
  if (status >= 400) return { ok: false, reason: 'http', detail: `${status} from ${host}${suffix}` };
  return null;
}
