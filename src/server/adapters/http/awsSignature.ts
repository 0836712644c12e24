// AWS Signature Version 4 (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html):
// a request is reduced to a canonical text (method, path, sorted query, the signed headers, the body's SHA-256), whose
// hash is signed with a key derived from the secret, the day, the region and the service. Checked against the
// published SigV4 test-suite vectors (tests/server/adapters/http/awsSignature.test.ts).
import { createHash, createHmac } from 'node:crypto';

export type AwsCredentials = { accessKeyId: string; secretAccessKey: string; sessionToken?: string };

export type AwsRequest = { method: string; url: string; headers: Record<string, string>; body?: string; region: string; service: string };

/** What signing adds: the URL with its query in canonical form (so what is sent is what was signed) and headers. */
export type SignedAwsRequest = { url: string; headers: Record<string, string> };

const algorithm = 'AWS4-HMAC-SHA256';

const sha256Hex = (data: string): string => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: Buffer | string, data: string): Buffer => createHmac('sha256', key).update(data, 'utf8').digest();

/** RFC 3986 encoding: everything but the unreserved characters A–Z a–z 0–9 - _ . ~ is percent-encoded. */
export function awsEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `20150830T123600Z`: the basic ISO 8601 form AWS signs. */
export function amzDate(now: Date): string {
  return now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

/** Each path segment decoded then encoded once; an empty path is `/`. */
function canonicalPath(pathname: string): string {
  if (!pathname) return '/';
  return pathname
    .split('/')
    .map((segment) => {
      try {
        return awsEncode(decodeURIComponent(segment));
      } catch {
        return awsEncode(segment);
      }
    })
    .join('/');
}

/** Query pairs encoded and sorted by name, then value (byte order, as AWS compares them). */
export function canonicalQuery(search: string): string {
  const pairs = [...new URLSearchParams(search)].map(([name, value]) => [awsEncode(name), awsEncode(value)]);
  pairs.sort(([leftName, leftValue], [rightName, rightValue]) => (leftName < rightName ? -1 : leftName > rightName ? 1 : leftValue < rightValue ? -1 : leftValue > rightValue ? 1 : 0));
  return pairs.map(([name, value]) => `${name}=${value}`).join('&');
}

/** Headers AWS must see unaltered: host, content-type and every x-amz-* (not user-agent or accept, which proxies rewrite). */
function signedHeaderNames(headers: Record<string, string>): string[] {
  return Object.keys(headers)
    .filter((name) => name === 'host' || name === 'content-type' || name.startsWith('x-amz-'))
    .sort();
}

/** The signing key: HMAC chain over the day, region, service and `aws4_request`. */
export function signingKey(secretAccessKey: string, day: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, day), region), service), 'aws4_request');
}

/** The canonical request of the SigV4 algorithm, and the header names it signs. */
export function canonicalRequest(method: string, url: URL, headers: Record<string, string>, body: string): { text: string; signedHeaders: string } {
  const names = signedHeaderNames(headers);
  const canonicalHeaders = names.map((name) => `${name}:${headers[name].trim().replace(/\s+/g, ' ')}\n`).join('');
  const signedHeaders = names.join(';');
  return { text: [method.toUpperCase(), canonicalPath(url.pathname), canonicalQuery(url.search), canonicalHeaders, signedHeaders, sha256Hex(body)].join('\n'), signedHeaders };
}

/**
 * Signs a request: answers the URL to send (query in canonical order and encoding) and the headers to add —
 * `x-amz-date`, `x-amz-security-token` for temporary credentials, and `authorization`. `host` is signed as the URL
 * names it, which is the Host header the HTTP client sends.
 */
export function signAwsRequest(request: AwsRequest, credentials: AwsCredentials, now = new Date()): SignedAwsRequest {
  const url = new URL(request.url);
  const stamp = amzDate(now);
  const day = stamp.slice(0, 8);
  const added: Record<string, string> = { 'x-amz-date': stamp };
  if (credentials.sessionToken) added['x-amz-security-token'] = credentials.sessionToken;
  const headers: Record<string, string> = { host: url.host };
  for (const [name, value] of Object.entries({ ...request.headers, ...added })) headers[name.toLowerCase()] = value;
  const { text, signedHeaders } = canonicalRequest(request.method, url, headers, request.body ?? '');
  const scope = `${day}/${request.region}/${request.service}/aws4_request`;
  const stringToSign = [algorithm, stamp, scope, sha256Hex(text)].join('\n');
  const signature = createHmac('sha256', signingKey(credentials.secretAccessKey, day, request.region, request.service)).update(stringToSign, 'utf8').digest('hex');
  added.authorization = `${algorithm} Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  const query = canonicalQuery(url.search);
  url.search = query ? `?${query}` : '';
  return { url: url.href, headers: added };
}
