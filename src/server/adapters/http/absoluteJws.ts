// Absolute Secure Endpoint API v3 request signing (https://api.absolute.com/api-doc/doc.html, "Authentication"): a
// request is not sent as itself but described in the protected header of a compact JWS (HS256 with the API token's
// secret: alg, kid = token id, method, content-type, uri, query-string, issuedAt in epoch milliseconds), whose
// payload is {"data": <body>} (or {} without a body), and the JWS is POSTed as text/plain to /jws/validate on the
// same host, which answers as the described request would.
import { createHmac } from 'node:crypto';

export type AbsoluteCredentials = { tokenId: string; secretKey: string };

export type AbsoluteRequest = { method: string; url: string; body?: string };

/** The request actually sent: the JWS posted to /jws/validate. */
export type SignedAbsoluteRequest = { method: 'POST'; url: string; headers: Record<string, string>; body: string };

const base64Url = (data: Buffer | string): string => Buffer.from(data).toString('base64url');

/** RFC 3986 encoding of one query name or value (what the vendor's signing examples produce with quote()). */
function encode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `name=value&…` in the order the request gives them, each part encoded once. */
export function absoluteQueryString(url: URL): string {
  return [...url.searchParams].map(([name, value]) => `${encode(name)}=${encode(value)}`).join('&');
}

/** The compact JWS describing `request`, signed at `issuedAt`. */
export function absoluteJws(request: AbsoluteRequest, credentials: AbsoluteCredentials, issuedAt: number): string {
  const url = new URL(request.url);
  const header = { alg: 'HS256', kid: credentials.tokenId, method: request.method.toUpperCase(), 'content-type': 'application/json', uri: url.pathname, 'query-string': absoluteQueryString(url), issuedAt };
  const payload = request.body ? { data: JSON.parse(request.body) as unknown } : {};
  const signingInput = `${base64Url(JSON.stringify(header))}.${base64Url(JSON.stringify(payload))}`;
  const signature = createHmac('sha256', credentials.secretKey).update(signingInput, 'utf8').digest();
  return `${signingInput}.${base64Url(signature)}`;
}

/** Turns a request into the POST of its JWS to /jws/validate on the same origin. */
export function signAbsoluteRequest(request: AbsoluteRequest, credentials: AbsoluteCredentials, now = Date.now()): SignedAbsoluteRequest {
  return { method: 'POST', url: `${new URL(request.url).origin}/jws/validate`, headers: { 'content-type': 'text/plain' }, body: absoluteJws(request, credentials, now) };
}
