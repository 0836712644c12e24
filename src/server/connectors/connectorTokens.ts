import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/database.js';

/**
 * A connector token is `cgc_<connector id>_<32 random bytes, base64url>`. The id only says which row to compare
 * with; the secret part is what proves the caller. Only its SHA-256 is stored: a copy of the database lets nobody
 * act as a connector. A hash of 256 random bits needs no salt or slow hash (nothing to guess).
 */
const tokenPattern = /^cgc_([1-9][0-9]{0,9})_([A-Za-z0-9_-]{43})$/;

export type IssuedToken = { token: string; hash: string };

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function issueConnectorToken(connectorId: number): IssuedToken {
  const token = `cgc_${connectorId}_${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashToken(token) };
}

/** The connector a presented token belongs to (remote, not revoked, hash equal in constant time), or null. */
export type TokenConnector = { id: number; company_id: number; name: string };

export async function connectorOfToken(db: Queryable, presented: string): Promise<TokenConnector | null> {
  const match = tokenPattern.exec(presented);
  if (!match) return null;
  const [row] = await db.query<TokenConnector & { token_hash: string | null }>(
    'select id, company_id, name, token_hash from connectors where id = $1 and not is_default and revoked_at is null',
    [Number(match[1])],
  );
  if (!row?.token_hash) return null;
  const expected = Buffer.from(row.token_hash, 'hex');
  const actual = Buffer.from(hashToken(presented), 'hex');
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  return { id: row.id, company_id: row.company_id, name: row.name };
}
