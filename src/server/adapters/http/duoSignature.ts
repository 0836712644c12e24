// Duo's request signing (https://duo.com/docs/adminapi#authentication, signature version 2): the date, method, host,
// path and the sorted, RFC 3986-encoded parameters, one per line, are signed with HMAC (SHA-512; SHA-1 is the
// original and still accepted) under the secret key, and sent as HTTP Basic with the integration key as user name and
// the hex signature as password, beside the Date header that was signed. Checked against the signatures Duo's own
// client library tests (tests/server/adapters/http/duoSignature.test.ts).
import { createHmac } from 'node:crypto';
import { awsEncode } from './awsSignature.js';

export type DuoAlgorithm = 'sha512' | 'sha1';

export type DuoRequest = { method: string; url: string; integrationKey: string; secretKey: string; algorithm?: DuoAlgorithm };

/** `Tue, 21 Aug 2012 17:29:18 -0000`: the RFC 2822 date Duo signs and expects in the Date header. */
export function duoDate(now: Date): string {
  return now.toUTCString().replace(/GMT$/, '-0000');
}

/** Parameters encoded (RFC 3986, UTF-8) and sorted by name then value in byte order, joined as `a=1&b=2`. */
export function duoCanonicalParams(pairs: [string, string][]): string {
  const encoded = pairs.map(([name, value]) => [awsEncode(name), awsEncode(value)] as const);
  // Encoded text is ASCII, so comparing it compares the UTF-8 bytes of the originals, as Duo's reference does.
  encoded.sort(([leftName, leftValue], [rightName, rightValue]) => (leftName < rightName ? -1 : leftName > rightName ? 1 : leftValue < rightValue ? -1 : leftValue > rightValue ? 1 : 0));
  return encoded.map(([name, value]) => `${name}=${value}`).join('&');
}

/** The signature version 2 text: date, upper-case method, lower-case host, path and the canonical parameters. */
export function duoCanonicalRequest(date: string, method: string, host: string, path: string, pairs: [string, string][]): string {
  return [date, method.toUpperCase(), host.toLowerCase(), path, duoCanonicalParams(pairs)].join('\n');
}

/** The Authorization header for a canonical text. */
export function duoAuthorization(canonical: string, integrationKey: string, secretKey: string, algorithm: DuoAlgorithm = 'sha512'): string {
  const signature = createHmac(algorithm, secretKey).update(canonical, 'utf8').digest('hex');
  return `Basic ${Buffer.from(`${integrationKey}:${signature}`, 'utf8').toString('base64')}`;
}

/** The headers that sign a GET (parameters in the query) or a form POST (parameters in the body). */
export function signDuoRequest(request: DuoRequest, body: string | undefined, now = new Date()): Record<string, string> {
  const url = new URL(request.url);
  const date = duoDate(now);
  const pairs = [...new URLSearchParams(request.method.toUpperCase() === 'GET' ? url.search : (body ?? ''))];
  const canonical = duoCanonicalRequest(date, request.method, url.host, url.pathname, pairs);
  return { date, authorization: duoAuthorization(canonical, request.integrationKey, request.secretKey, request.algorithm) };
}
