import { createHmac, randomBytes } from 'node:crypto';
import { logSystemEvent } from '../activities/activityLog.js';
import type { AppContext } from '../context.js';
import { detailBody, Forbidden } from '../errors.js';

export const lockoutThreshold = 5;
const lockoutWindowMinutes = 15;

export const lockedAnswer = () =>
  new Forbidden(detailBody(`This account is locked after ${lockoutThreshold} failed sign-ins. Try again in ${lockoutWindowMinutes} minutes.`, 'account_locked'));

/**
 * A sign-in attempt admitted under the limit. It is counted as a failure from the start, before any password is
 * checked, so attempts sent at once cannot all pass a limit they read together; it stops counting only when it
 * turns out not to be a failed guess (`settled` says whether that is decided).
 */
export type SignInAttempt = { username: string; sourceIp: string; counted: number; settled: boolean };

/**
 * Counts the attempt, or throws the locked answer when the name has reached the limit; then no password is checked.
 * Failures count while each follows the last within 15 minutes; the lock lifts 15 minutes after the last one.
 * One statement: PostgreSQL re-reads a row another statement has just changed before adding to it.
 */
async function admitAttempt(context: AppContext, username: string, sourceIp: string): Promise<SignInAttempt> {
  const [row] = await context.db.query<{ failures: number }>(
    `insert into sign_in_attempt_counts as counts (username_key, failures, last_counted_at) values (lower($1), 1, now())
     on conflict (username_key) do update
       set failures = case when counts.last_counted_at > now() - make_interval(mins => $3) then counts.failures + 1 else 1 end, last_counted_at = now()
       where counts.failures < $2 or counts.last_counted_at <= now() - make_interval(mins => $3)
     returning failures`,
    [username, lockoutThreshold, lockoutWindowMinutes],
  );
  if (!row) throw lockedAnswer();
  return { username, sourceIp, counted: row.failures, settled: false };
}

/** Takes back an attempt that was no failed guess (nothing decided, or the one-time password still to come). */
async function withdrawAttempt(context: AppContext, attempt: SignInAttempt): Promise<void> {
  attempt.settled = true;
  await context.db.query('update sign_in_attempt_counts set failures = failures - 1 where username_key = lower($1) and failures > 0', [attempt.username]);
}

/**
 * Runs one sign-in as an attempt counted toward lockout. An attempt that ends without failSignIn or
 * succeedSignIn (an unreachable directory, a database error, the one-time password asked for) is taken back.
 */
export async function asCountedAttempt<T>(context: AppContext, username: string, sourceIp: string, signIn: (attempt: SignInAttempt) => Promise<T>): Promise<T> {
  const attempt = await admitAttempt(context, username, sourceIp);
  try {
    return await signIn(attempt);
  } finally {
    if (!attempt.settled) await withdrawAttempt(context, attempt);
  }
}

/** A successful sign-in starts the count of its name again. */
export async function succeedSignIn(context: AppContext, attempt: SignInAttempt): Promise<void> {
  attempt.settled = true;
  await context.db.query('delete from sign_in_attempt_counts where username_key = lower($1)', [attempt.username]);
  await context.db.query('delete from sign_in_failures where lower(username) = lower($1)', [attempt.username]);
}

// Keys the digests of failed attempts. It never leaves this process, so a stored digest cannot be tested against
// guessed passwords, and every digest becomes meaningless when the process stops.
const attemptDigestKey = randomBytes(32);
// A repeat of the very same failed attempt within this long is the same attempt sent again, not another guess.
const repeatWindowSeconds = 10;

/** The keyed hash of an attempt: username (as sign-in compares it), client address and what was typed. */
function attemptDigest(username: string, sourceIp: string, typed: string): string {
  return createHmac('sha256', attemptDigestKey).update(JSON.stringify([username.toLowerCase(), sourceIp, typed])).digest('base64url');
}

/**
 * Records the attempt as a failure; the answer is "locked" when it is the one that reached the limit, "invalid"
 * before. With `typed` (the password or code tried), the same attempt repeated within 10 s is answered alike but
 * counted once: the repeat is taken back.
 */
export async function failSignIn(context: AppContext, attempt: SignInAttempt, answer: () => Error, typed?: string): Promise<never> {
  const { username, sourceIp } = attempt;
  attempt.settled = true;
  const digest = typed === undefined ? null : attemptDigest(username, sourceIp, typed);
  const recorded = await context.db.query(
    `insert into sign_in_failures (username, source_ip, attempt_digest) select $1, $2, $3::text
      where $3::text is null or not exists (
        select 1 from sign_in_failures where lower(username) = lower($1) and attempt_digest = $3 and created_at > now() - make_interval(secs => $4))
      returning id`,
    [username, sourceIp, digest, repeatWindowSeconds],
  );
  if (!recorded.length) {
    await withdrawAttempt(context, attempt);
    throw answer();
  }
  if (attempt.counted >= lockoutThreshold) {
    await logSystemEvent(context.db, 'warning', 'account_locked', `Sign-in locked for "${username}" after ${lockoutThreshold} failures`, { source_ip: sourceIp });
    throw lockedAnswer();
  }
  throw answer();
}
