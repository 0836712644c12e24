import { signAccessToken } from '../auth/accessTokens.js';
import type { AppContext } from '../context.js';
import { grantsOf, isPasswordExpired } from './callers.js';

export type AccessAnswer = { access: string; password_expired?: true };

/** Signs an access token for a user; an expired password is said in the answer and in the token (`pwx`). */
export async function issueAccess(context: AppContext, userId: number): Promise<AccessAnswer> {
  const [user] = await context.db.query<{ id: number; company_id: number; username: string; password_expired: boolean; password_changed_at: Date }>(
    'select id, company_id, username, password_expired, password_changed_at from users where id = $1',
    [userId],
  );
  if (!user) throw new Error(`User ${userId} vanished while signing in`);
  const { adapters } = await grantsOf(context.db, userId);
  const expired = isPasswordExpired(user, context.config.passwordExpiryDays);
  const access = await signAccessToken(
    context.keys.tokenSigningKey,
    { user_id: user.id, company_id: user.company_id, username: user.username, adapters, ...(expired && { pwx: true as const }) },
    context.config.accessTokenTtlSeconds,
  );
  return expired ? { access, password_expired: true } : { access };
}
