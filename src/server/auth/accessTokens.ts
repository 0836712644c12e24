import { jwtVerify, SignJWT } from 'jose';

export type AccessClaims = {
  user_id: number;
  company_id: number;
  username: string;
  adapters: string[];
  /** Present when the password expired: such a token only reaches the account endpoints. */
  pwx?: true;
};

export type VerifiedAccess = AccessClaims & { exp: number; iat: number };

/** Signs a short-lived access token (JWT, HS256) carrying who the caller is and which adapters they may use. */
export function signAccessToken(key: Uint8Array, claims: AccessClaims, ttlSeconds: number): Promise<string> {
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(claims.user_id))
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(key);
}

/** Verifies signature, algorithm and expiry; null for anything that is not a valid, current token of ours. */
export async function verifyAccessToken(key: Uint8Array, token: string): Promise<VerifiedAccess | null> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
    if (typeof payload.user_id !== 'number' || typeof payload.company_id !== 'number') return null;
    return payload as unknown as VerifiedAccess;
  } catch {
    return null;
  }
}
