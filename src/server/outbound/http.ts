// HTTP(S) through the outbound guard: an undici dispatcher whose every connection is checked (the resolved address on
// each hop, redirects included), and a request that follows redirects the guarded way (redirects.ts).
import { rootCertificates } from 'node:tls';
import { Agent, buildConnector, ProxyAgent, request, fetch as undiciFetch, type Dispatcher } from 'undici';
import { checkDestination, checkLiteralHost, guardedLookup, type OutboundPolicy } from './guard.js';
import { isRedirectStatus, redirectedRequest, RedirectRefusedError, type HopRequest } from './redirects.js';

export type HttpTlsOptions = { verifySsl: boolean; customCa?: string; proxy?: string };

/** An undici dispatcher that checks every connection it opens, carrying the policy it checks with. */
export type GuardedDispatcher = Dispatcher & { outbound: { policy: OutboundPolicy; proxied: boolean } };

/**
 * A connector that refuses literal addresses the policy refuses before connecting, and resolves names through the
 * guard (the socket connects to the address that was checked).
 */
function guardedConnector(policy: OutboundPolicy, tls: object): buildConnector.connector {
  const connect = buildConnector({ ...tls, lookup: guardedLookup(policy) } as buildConnector.BuildOptions);
  return (options, callback) => {
    try {
      checkLiteralHost(options.hostname, policy);
    } catch (error) {
      callback(error as Error, null);
      return;
    }
    connect(options, callback);
  };
}

/** The dispatcher for one connection's TLS and proxy settings; close it when the calls end. */
export function guardedDispatcher(options: HttpTlsOptions, policy: OutboundPolicy, agentOptions: Agent.Options = {}): GuardedDispatcher {
  // A custom CA is trusted in addition to the public authorities, not instead of them.
  const tls = { rejectUnauthorized: options.verifySsl, ...(options.customCa && { ca: [...rootCertificates, options.customCa] }) };
  if (options.proxy) {
    // The proxy is a destination too; the addresses behind it are judged per hop by `guardedRequest`.
    checkLiteralHost(new URL(options.proxy).hostname, policy);
    const proxy = new ProxyAgent({ uri: options.proxy, requestTls: tls, proxyTls: { ...tls, lookup: guardedLookup(policy) } as typeof tls });
    return Object.assign(proxy, { outbound: { policy, proxied: true } });
  }
  const agent = new Agent({ ...agentOptions, connect: guardedConnector(policy, tls) });
  return Object.assign(agent, { outbound: { policy, proxied: false } });
}

export type GuardedAnswer = { url: string; answer: Dispatcher.ResponseData };

/**
 * Sends a request through a guarded dispatcher, following at most `maxRedirects` redirects by hand: each hop is
 * checked by the dispatcher's connector (through a proxy, its host is resolved and checked here), never changes
 * scheme, and reaches another origin without credentials. Answers the final answer and its URL; the caller reads
 * or dumps its body.
 */
export async function guardedRequest(first: HopRequest, dispatcher: GuardedDispatcher, options: { signal?: AbortSignal; maxRedirects: number }): Promise<GuardedAnswer> {
  let hop = first;
  for (let redirects = 0; ; redirects += 1) {
    if (dispatcher.outbound.proxied) await checkDestination(new URL(hop.url).hostname, dispatcher.outbound.policy);
    const answer = await request(hop.url, { method: hop.method as Dispatcher.HttpMethod, headers: hop.headers, body: hop.body, dispatcher, signal: options.signal, maxRedirections: 0 });
    const location = answer.headers.location;
    if (!isRedirectStatus(answer.statusCode) || typeof location !== 'string' || !location) return { url: hop.url, answer };
    await answer.body.dump().catch(() => undefined);
    if (redirects >= options.maxRedirects) throw new RedirectRefusedError(`${new URL(hop.url).pathname} redirected more than ${options.maxRedirects} times`);
    hop = redirectedRequest(hop, answer.statusCode, location);
  }
}

/**
 * `fetch` (bodies decoded as browsers do, gzip Content-Encoding undone) through a guarded dispatcher, following at
 * most `maxRedirects` redirects the same guarded way as `guardedRequest`.
 */
export async function guardedFetch(first: HopRequest, dispatcher: GuardedDispatcher, options: { signal?: AbortSignal; maxRedirects: number }): Promise<Response> {
  let hop = first;
  for (let redirects = 0; ; redirects += 1) {
    if (dispatcher.outbound.proxied) await checkDestination(new URL(hop.url).hostname, dispatcher.outbound.policy);
    const response = await undiciFetch(hop.url, { method: hop.method, headers: hop.headers, body: hop.body, dispatcher, signal: options.signal, redirect: 'manual' });
    const location = response.headers.get('location');
    if (!isRedirectStatus(response.status) || !location) return response as unknown as Response;
    await response.body?.cancel().catch(() => undefined);
    if (redirects >= options.maxRedirects) throw new RedirectRefusedError(`${new URL(hop.url).pathname} redirected more than ${options.maxRedirects} times`);
    hop = redirectedRequest(hop, response.status, location);
  }
}
