// Oracle Cloud Infrastructure request signing, signature version 1 (https://docs.oracle.com/iaas/Content/API/Concepts/signingrequests.htm,
// built on draft-cavage-http-signatures-08): the date, the lower-case method with the path and query as sent, and
// the host are signed, plus for a request with a body its length, type and SHA-256; the RSA-SHA256 signature goes in
// `Authorization: Signature version="1",keyId="<tenancy>/<user>/<fingerprint>",...`. Checked against the GET and POST
// examples of that page (tests/server/adapters/http/ociSignature.test.ts).
import { createHash, sign, type KeyObject } from 'node:crypto';

export type OciRequest = { method: string; url: string; body?: string; contentType?: string };

const genericHeaders = ['date', '(request-target)', 'host'];
const bodyHeaders = ['content-length', 'content-type', 'x-content-sha256'];
/** OCI hashes the body of these methods only (a GET or DELETE signs no body headers). */
const methodsWithBody = new Set(['POST', 'PUT', 'PATCH']);

/** The text OCI signs: one `name: value` line per signed header, in the order they are listed. */
export function ociSigningString(values: Record<string, string>, names: string[]): string {
  return names.map((name) => `${name}: ${values[name]}`).join('\n');
}

/** The headers that sign a request sent at `date` (an HTTP date; the Date header is part of what is signed). */
export function signOciRequest(request: OciRequest, keyId: string, key: KeyObject, date = new Date().toUTCString()): Record<string, string> {
  const url = new URL(request.url);
  const method = request.method.toUpperCase();
  const values: Record<string, string> = { date, '(request-target)': `${method.toLowerCase()} ${url.pathname}${url.search}`, host: url.host };
  const names = [...genericHeaders];
  if (methodsWithBody.has(method)) {
    const body = Buffer.from(request.body ?? '', 'utf8');
    Object.assign(values, { 'content-length': String(body.length), 'content-type': request.contentType ?? 'application/json', 'x-content-sha256': createHash('sha256').update(body).digest('base64') });
    names.push(...bodyHeaders);
  }
  const signature = sign('sha256', Buffer.from(ociSigningString(values, names), 'utf8'), key).toString('base64');
  const headers: Record<string, string> = { date: values.date, authorization: `Signature version="1",headers="${names.join(' ')}",keyId="${keyId}",algorithm="rsa-sha256",signature="${signature}"` };
  for (const name of names) if (bodyHeaders.includes(name) && name !== 'content-length') headers[name] = values[name];
  return headers;
}
