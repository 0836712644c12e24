import { verifyPassword } from '../auth/passwords.js';
import type { AppContext } from '../context.js';
import { detailBody, Unauthenticated } from '../errors.js';
import { issueAccess, type AccessAnswer } from './accessIssuer.js';
import { verifySecondFactor } from './otp.js';
import { asCountedAttempt, failSignIn, succeedSignIn } from './signInLockout.js';

type Credentials = { username: string; password: string; otp?: string };
type SignInUser = { id: number; password_hash: string | null; otp_secret: string | null; is_active: boolean; company_active: boolean };

export const invalidCredentials = () => new Unauthenticated(detailBody('Invalid username or password.', 'invalid_credentials'));
export const invalidOtp = () => new Unauthenticated(detailBody('Invalid one-time password.', 'invalid_otp'));

/**
 * Password sign-in with lockout and the one-time-password step. Unknown usernames cost the same time and
 * get the same answers (including lockout) as known ones, so usernames cannot be probed.
 */
export async function signInWithPassword(context: AppContext, credentials: Credentials, sourceIp: string): Promise<AccessAnswer | { otp_required: true }> {
  const { username, password, otp } = credentials;
  return asCountedAttempt(context, username, sourceIp, async (attempt) => {
    const [user] = await context.db.query<SignInUser>(
      `select u.id, u.password_hash, u.otp_secret, u.is_active, c.is_active as company_active
         from users u join companies c on c.id = u.company_id where lower(u.username) = lower($1)`,
      [username],
    );
    const passwordMatches = await verifyPassword(user?.password_hash ?? null, password);
    if (!user || !passwordMatches || !user.is_active || !user.company_active) return failSignIn(context, attempt, invalidCredentials);
    if (user.otp_secret) {
      if (!otp) return { otp_required: true as const };
      if (!(await verifySecondFactor(context.db, context.keys.secretsKey, { id: user.id, otp_secret: user.otp_secret }, otp))) return failSignIn(context, attempt, invalidOtp);
    }
    await succeedSignIn(context, attempt);
    return issueAccess(context, user.id);
  });
}
