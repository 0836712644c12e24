// How a redirect is followed, for every HTTP caller (the adapter engine, file URLs, feeds): never to another scheme,
// and to another origin without anything that proves who we are. Pagination's next-page URLs use the same origin test.

/** Whether two URLs share scheme, host and port: credentials may go from one to the other. */
export function sameOrigin(first: string | URL, second: string | URL): boolean {
  return new URL(first).origin === new URL(second).origin;
}

/** A redirect the guard will not follow (another scheme, or a request body that would go to another origin). */
export class RedirectRefusedError extends Error {
  readonly statusCode = 400;
  readonly code = 'redirect_refused';
}

export type HopRequest = { url: string; method: string; headers: Record<string, string>; body?: string };

// What a request to another origin keeps: the headers that say what we are and what we want, never who we are
// (Authorization, Cookie, signatures such as SigV4's, API-key headers an authenticator or a manifest adds).
const harmlessHeaders = new Set(['user-agent', 'accept', 'accept-language', 'accept-encoding']);

export const isRedirectStatus = (status: number): boolean => status === 301 || status === 302 || status === 303 || status === 307 || status === 308;

/**
 * The request a redirect leads to. 303, and 301/302 after a POST, become a GET without body (as browsers do); 307 and
 * 308 repeat the request. To another origin only harmless headers go along, and a body never does: a request that
 * would resend its body there is refused. Another scheme (https → http) is always refused.
 */
export function redirectedRequest(previous: HopRequest, status: number, location: string): HopRequest {
  const from = new URL(previous.url);
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new RedirectRefusedError(`${from.pathname} redirected to an invalid address; not followed`);
  }
  if (next.protocol !== from.protocol) throw new RedirectRefusedError(`${from.pathname} redirected to another scheme (${next.protocol}); not followed`);
  const becomesGet = status === 303 || ((status === 301 || status === 302) && previous.method.toUpperCase() === 'POST');
  const method = becomesGet && previous.method.toUpperCase() !== 'HEAD' ? 'GET' : previous.method;
  const body = becomesGet ? undefined : previous.body;
  let headers = { ...previous.headers };
  if (becomesGet) for (const name of Object.keys(headers)) if (/^content-(type|length|encoding)$/i.test(name)) delete headers[name];
  if (!sameOrigin(from, next)) {
    if (body !== undefined) throw new RedirectRefusedError(`${from.pathname} redirected a request with a body to another origin (${next.origin}); not followed`);
    headers = Object.fromEntries(Object.entries(headers).filter(([name]) => harmlessHeaders.has(name.toLowerCase())));
  }
  return { url: next.href, method, headers, ...(body !== undefined && { body }) };
}
