// Alibaba Cloud's RPC request signature, version 1.0 (https://www.alibabacloud.com/help/en/sdk/product-overview/rpc-mechanism):
// the common parameters (AccessKeyId, Format, SignatureMethod HMAC-SHA1, SignatureVersion 1.0, a fresh SignatureNonce and
// Timestamp) join the request's own; all are sorted and RFC 3986-encoded into the canonical query, and
// `METHOD&%2F&<encoded canonical query>` is signed with HMAC-SHA1 under "<secret>&". Checked against the
// DescribeRegions example of that page (tests/server/adapters/http/alibabaSignature.test.ts).
import { createHmac, randomUUID } from 'node:crypto';
import { awsEncode } from './awsSignature.js';

export type AlibabaCredentials = { accessKeyId: string; accessKeySecret: string };

/** Parameters sorted by name and encoded as Alibaba encodes them (RFC 3986: space %20, `*` %2A, `~` kept). */
export function alibabaCanonicalQuery(params: [string, string][]): string {
  return params
    .map(([name, value]) => [awsEncode(name), awsEncode(value)] as const)
    .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

/** The base64 HMAC-SHA1 signature of a request's parameters. */
export function alibabaSignature(method: string, params: [string, string][], accessKeySecret: string): string {
  const stringToSign = `${method.toUpperCase()}&${awsEncode('/')}&${awsEncode(alibabaCanonicalQuery(params))}`;
  return createHmac('sha1', `${accessKeySecret}&`).update(stringToSign, 'utf8').digest('base64');
}

/** The URL of a GET signed at `now`: its query with the common parameters and Signature, in canonical order. */
export function signAlibabaRequest(method: string, url: string, credentials: AlibabaCredentials, now = new Date(), nonce: string = randomUUID()): string {
  const target = new URL(url);
  const common: [string, string][] = [
    ['AccessKeyId', credentials.accessKeyId],
    ['Format', 'JSON'],
    ['SignatureMethod', 'HMAC-SHA1'],
    ['SignatureVersion', '1.0'],
    ['SignatureNonce', nonce],
    ['Timestamp', now.toISOString().replace(/\.\d{3}Z$/, 'Z')],
  ];
  const own = [...target.searchParams].filter(([name]) => !common.some(([commonName]) => commonName === name) && name !== 'Signature');
  const params = [...own, ...common];
  const signature = alibabaSignature(method, params, credentials.accessKeySecret);
  target.search = `${alibabaCanonicalQuery(params)}&Signature=${awsEncode(signature)}`;
  return target.href;
}
