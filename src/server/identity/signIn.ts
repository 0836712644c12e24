import { createHmac, randomBytes } from 'node:crypto';
import { verifyPassword } from '../auth/passwords.js';
import { logSystemEvent } from '../activities/activityLog.js';
import type { AppContext } from '../context.js';
import { detailError } from '../http/errors.js';
import { issueAccess, type AccessAnswer } from './accessIssuer.js';
import { verifyOtpCode } from './otp.js';

export const lockoutThreshold = 5;
const lockoutWindowMinutes = 15;

type Credentials = { username: string; password: string; otp?: string };
type SignInUser = { id: number; password_hash: string | null; otp_secret: string | null; is_active: boolean; company_active: boolean };

export const invalidCredentials = () => detailError(401, 'Invalid username or password.', 'invalid_credentials');
export const lockedAnswer = () =>
  detailError(403, `This account is locked after ${lockoutThreshold} failed sign-ins. Try again in ${lockoutWindowMinutes} minutes.`, 'account_locked');

export async function recentFailures(context: AppContext, username: string): Promise<number> {
  const [row] = await context.db.query<{ failures: number }>(
    `select count(*)::int as failures from sign_in_failures where lower(username) = lower($1) and created_at > now() - make_interval(mins => $2)`,
    [username, lockoutWindowMinutes],
  );
  return row?.failures ?? 0;
}

// Keys the digests of failed attempts. It never leaves this process, so a stored digest cannot be tested against
// guessed passwords, and every digest becomes meaningless when the process stops.
const attemptDigestKey = randomBytes(32);
// A repeat of the very same failed attempt within this long is the same attempt sent again, not another guess.
const repeatWindowSeconds = 10;

/** The keyed hash of an attempt: username (as sign-in compares it), client address and what was typed. */
export function attemptDigest(username: string, sourceIp: string, typed: string): string {
  return createHmac('sha256', attemptDigestKey).update(JSON.stringify([username.toLowerCase(), sourceIp, typed])).digest('base64url');
}

/**
 * Records a failure; the answer is "locked" once this failure reaches the threshold, "invalid" before. With `typed`
 * (the password or code tried), the same attempt repeated within 10 s is answered alike but counted once.
 */
export async function failSignIn(context: AppContext, username: string, sourceIp: string, answer: () => Error, typed?: string): Promise<never> {
  const digest = typed === undefined ? null : attemptDigest(username, sourceIp, typed);
  await context.db.query(
    `insert into sign_in_failures (username, source_ip, attempt_digest) select $1, $2, $3::text
      where $3::text is null or not exists (
        select 1 from sign_in_failures where lower(username) = lower($1) and attempt_digest = $3 and created_at > now() - make_interval(secs => $4))`,
    [username, sourceIp, digest, repeatWindowSeconds],
  );
  if ((await recentFailures(context, username)) >= lockoutThreshold) {
    await logSystemEvent(context.db, 'warning', 'account_locked', `Sign-in locked for "${username}" after ${lockoutThreshold} failures`, { source_ip: sourceIp });
    throw lockedAnswer();
  }
  throw answer();
}

/**
 * Password sign-in with lockout and the one-time-password step. Unknown usernames cost the same time and
 * get the same answers (including lockout) as known ones, so usernames cannot be probed.
 */
export async function signInWithPassword(context: AppContext, credentials: Credentials, sourceIp: string): Promise<AccessAnswer | { otp_required: true }> {
  const { username, password, otp } = credentials;
  if ((await recentFailures(context, username)) >= lockoutThreshold) throw lockedAnswer();
  const [user] = await context.db.query<SignInUser>(
    `select u.id, u.password_hash, u.otp_secret, u.is_active, c.is_active as company_active
       from users u join companies c on c.id = u.company_id where lower(u.username) = lower($1)`,
    [username],
  );
  const passwordMatches = await verifyPassword(user?.password_hash ?? null, password);
  if (!user || !passwordMatches || !user.is_active || !user.company_active) return failSignIn(context, username, sourceIp, invalidCredentials);
  if (user.otp_secret) {
    if (!otp) return { otp_required: true };
    if (!(await verifyOtpCode(context.keys.secretsKey, user.otp_secret, otp))) {
      return failSignIn(context, username, sourceIp, () => detailError(401, 'Invalid one-time password.', 'invalid_otp'));
    }
  }
  await context.db.query('delete from sign_in_failures where lower(username) = lower($1)', [username]);
  return issueAccess(context, user.id);
}
