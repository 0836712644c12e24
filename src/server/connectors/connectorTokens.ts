import { randomBytes, timingSafeEqual } from 'node:crypto';
import { hashToken } from '../auth/tokenHash.js';
import type { Queryable } from '../db/database.js';

/**
 * A connector token is `cgc_<connector id>_<32 random bytes, base64url>`. The id only says which row to compare
 * with; the secret part is what proves the caller. Only its SHA-256 is stored: a copy of the database lets nobody
 * act as a connector (auth/tokenHash.ts).
 */
const tokenPattern = /^cgc_([1-9][0-9]{0,9})_([A-Za-z0-9_-]{43})$/;

export type IssuedToken = { token: string; hash: string };

export function issueConnectorToken(connectorId: number): IssuedToken {
  const token = `cgc_${connectorId}_${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashToken(token) };
}

/** The connector a presented token belongs to (remote, not revoked, hash equal in constant time). */
export type TokenConnector = { id: number; company_id: number; name: string; version: string; last_seen_at: Date | null };

/** Why a token was refused, with the connector it names when it names one (for the system log, never the caller). */
export type TokenRefusal = { reason: 'malformed' | 'unknown' | 'revoked' | 'wrong'; connector: TokenConnector | null };

export async function checkConnectorToken(db: Queryable, presented: string): Promise<{ connector: TokenConnector } | { refusal: TokenRefusal }> {
  const match = tokenPattern.exec(presented);
  if (!match) return { refusal: { reason: 'malformed', connector: null } };
  const [row] = await db.query<TokenConnector & { token_hash: string | null; revoked_at: Date | null }>(
    'select id, company_id, name, version, last_seen_at, token_hash, revoked_at from connectors where id = $1 and not is_default',
    [Number(match[1])],
  );
  if (!row) return { refusal: { reason: 'unknown', connector: null } };
  const { token_hash: tokenHash, revoked_at: revokedAt, ...connector } = row;
  if (revokedAt || !tokenHash) return { refusal: { reason: 'revoked', connector } };
  const expected = Buffer.from(tokenHash, 'hex');
  const actual = Buffer.from(hashToken(presented), 'hex');
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return { refusal: { reason: 'wrong', connector } };
  return { connector };
}
