// The JWT bearer grant (RFC 7523): a token is asked with a JSON Web Token the client signs with its own private key
// instead of a shared secret. Google service accounts use it, with `sub` naming the administrator they impersonate
// (domain-wide delegation). RS256 (RSASSA-PKCS1-v1_5 with SHA-256, RFC 7518 §3.3) through node:crypto; checked against
// the RS256 example of RFC 7515 Appendix A.2 (tests/server/adapters/http/jwtAssertion.test.ts).
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';

export const jwtBearerGrantType = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export type JwtAssertionClaims = { issuer: string; audience: string; subject?: string; scope?: string; lifetimeSeconds?: number; keyId?: string };

export function base64Url(data: Buffer | string): string {
  return Buffer.from(data).toString('base64url');
}

/** The private key of a PEM text; a key that does not parse fails with a message that never repeats it. */
export function privateKeyOf(pem: string): KeyObject {
  try {
    return createPrivateKey(pem.replace(/\\n/g, '\n'));
  } catch {
    throw new Error('the private key is not a PEM-encoded RSA private key');
  }
}

/** The RS256 signature of a JWS signing input (`<header>.<payload>`, both base64url), base64url-encoded. */
export function signRs256(signingInput: string, key: KeyObject): string {
  return base64Url(sign('sha256', Buffer.from(signingInput, 'ascii'), key));
}

/** A signed assertion: iss, aud, sub (when given), scope (when given), iat now and exp after the lifetime (≤ 1 hour). */
export function jwtAssertion(claims: JwtAssertionClaims, key: KeyObject, now = new Date()): string {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const lifetime = Math.min(Math.max(claims.lifetimeSeconds ?? 3600, 60), 3600);
  const header = { alg: 'RS256', typ: 'JWT', ...(claims.keyId ? { kid: claims.keyId } : {}) };
  const payload = { iss: claims.issuer, ...(claims.subject ? { sub: claims.subject } : {}), ...(claims.scope ? { scope: claims.scope } : {}), aud: claims.audience, iat: issuedAt, exp: issuedAt + lifetime };
  const signingInput = `${base64Url(JSON.stringify(header))}.${base64Url(JSON.stringify(payload))}`;
  return `${signingInput}.${signRs256(signingInput, key)}`;
}
