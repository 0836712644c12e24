import { createHash, randomInt } from 'node:crypto';
import type { Queryable } from '../db/database.js';

/** Lower-case letters and digits without the ones people misread on paper (0/o, 1/l/i). */
const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
export const recoveryCodeCount = 10;

/** A code as people may type it back (capitals, spaces, with or without the dash) in the form it was issued in. */
export const normalizedRecoveryCode = (typed: string): string => typed.toLowerCase().replace(/[\s-]/g, '');

/** Whether what was typed at the second step is shaped like a recovery code rather than a six-digit code. */
export const looksLikeRecoveryCode = (typed: string): boolean => new RegExp(`^[${alphabet}]{10}$`).test(normalizedRecoveryCode(typed));

// Ten random characters of 31 are about 50 bits: a salted digest is enough, a slow hash would only slow sign-ins.
const digestOf = (userId: number, typed: string) => createHash('sha256').update(`${userId}:${normalizedRecoveryCode(typed)}`).digest('hex');

function newCode(): string {
  const characters = Array.from({ length: 10 }, () => alphabet[randomInt(alphabet.length)]).join('');
  return `${characters.slice(0, 5)}-${characters.slice(5)}`;
}

/** Replaces the user's recovery codes with ten new ones; answers them, the only time they are ever readable. */
export async function issueRecoveryCodes(db: Queryable, userId: number): Promise<string[]> {
  const codes = new Set<string>();
  while (codes.size < recoveryCodeCount) codes.add(newCode());
  await db.query('delete from otp_recovery_codes where user_id = $1', [userId]);
  await db.query('insert into otp_recovery_codes (user_id, code_hash) select $1, unnest($2::text[])', [userId, [...codes].map((code) => digestOf(userId, code))]);
  return [...codes];
}

/** Uses up one recovery code: true when it was the user's and unused. One statement, so two sign-ins cannot both spend it. */
export async function spendRecoveryCode(db: Queryable, userId: number, typed: string): Promise<boolean> {
  if (!looksLikeRecoveryCode(typed)) return false;
  const spent = await db.query('update otp_recovery_codes set used_at = now() where user_id = $1 and code_hash = $2 and used_at is null returning id', [userId, digestOf(userId, typed)]);
  return spent.length === 1;
}

export async function recoveryCodesLeft(db: Queryable, userId: number): Promise<number> {
  const [row] = await db.query<{ count: number }>('select count(*)::int as count from otp_recovery_codes where user_id = $1 and used_at is null', [userId]);
  return row.count;
}

/** Turns the user's second factor off: the secret, an enrolment under way and the recovery codes go. */
export async function removeSecondFactor(db: Queryable, userId: number): Promise<void> {
  await db.query('update users set otp_secret = null, otp_pending_secret = null where id = $1', [userId]);
  await db.query('delete from otp_recovery_codes where user_id = $1', [userId]);
}
