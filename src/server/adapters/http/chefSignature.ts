// Chef Infra Server request signing, protocol version 1.3 (https://docs.chef.io/server/api_chef_server/#authentication-headers):
// the method, path, SHA-256 of the body, signing version, timestamp, client name and server API version, one per line,
// are signed with the client's RSA key (RSA-SHA256), and the base64 signature is sent in X-Ops-Authorization-1..N
// headers of 60 characters each. Checked against the vector of Chef's mixlib-authentication
// (tests/server/adapters/http/chefSignature.test.ts).
import { createHash, sign, type KeyObject } from 'node:crypto';

export type ChefRequest = { method: string; url: string; body?: string; clientName: string; serverApiVersion?: string };

/** `/organizations//acme/nodes/` → `/organizations/acme/nodes`: repeated slashes squeezed, a trailing one dropped. */
export function chefCanonicalPath(path: string): string {
  const squeezed = path.replace(/\/+/g, '/');
  return squeezed.length > 1 ? squeezed.replace(/\/$/, '') : squeezed;
}

/** The version 1.3 text Chef signs. */
export function chefCanonicalRequest(method: string, path: string, contentHash: string, timestamp: string, clientName: string, serverApiVersion: string): string {
  return [`Method:${method.toUpperCase()}`, `Path:${chefCanonicalPath(path)}`, `X-Ops-Content-Hash:${contentHash}`, 'X-Ops-Sign:version=1.3', `X-Ops-Timestamp:${timestamp}`, `X-Ops-UserId:${clientName}`, `X-Ops-Server-API-Version:${serverApiVersion}`].join('\n');
}

/** `2009-01-01T12:00:00Z`: the timestamp Chef signs (seconds, UTC). */
export function chefTimestamp(now: Date): string {
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The headers that sign a request (the body is hashed as sent; an empty body hashes the empty string). */
export function signChefRequest(request: ChefRequest, key: KeyObject, now = new Date()): Record<string, string> {
  const serverApiVersion = request.serverApiVersion ?? '1';
  const timestamp = chefTimestamp(now);
  const contentHash = createHash('sha256').update(request.body ?? '', 'utf8').digest('base64');
  const canonical = chefCanonicalRequest(request.method, new URL(request.url).pathname, contentHash, timestamp, request.clientName, serverApiVersion);
  const signature = sign('sha256', Buffer.from(canonical, 'utf8'), key).toString('base64');
  const headers: Record<string, string> = {
    'x-ops-sign': 'algorithm=sha256;version=1.3;',
    'x-ops-userid': request.clientName,
    'x-ops-timestamp': timestamp,
    'x-ops-content-hash': contentHash,
    'x-ops-server-api-version': serverApiVersion,
  };
  for (let index = 0; index * 60 < signature.length; index += 1) headers[`x-ops-authorization-${index + 1}`] = signature.slice(index * 60, index * 60 + 60);
  return headers;
}
