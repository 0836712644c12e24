import { randomBytes } from 'node:crypto';
import { loadApiTokenSettings, saveApiTokenSettings, tokenExpiry, type ApiTokenSettings, type TokenLifetimeRequest } from '../../auth/apiTokenLifetime.js';
import { hashPassword, passwordPolicyErrors, verifyPassword } from '../../auth/passwords.js';
import { hashToken } from '../../auth/tokenHash.js';
import type { AppContext } from '../../context.js';
import { issueAccess } from '../../identity/accessIssuer.js';
import { newOtpEnrolment, sealOtpSecret, verifyOtpCode } from '../../identity/otp.js';
import { issueRecoveryCodes, recoveryCodesLeft, removeSecondFactor } from '../../identity/recoveryCodes.js';
import { describeUser, userById } from '../../identity/users.js';
import { detailError, fieldError, notFound } from '../errors.js';
import { callerOf, type RouteCatalogue } from '../routes.js';

type TokenRow = { id: number; name: string; created_at: Date; expires_at: Date | null; last_used_at: Date | null };

/** The signed-in user's own account: profile, password, one-time password, API tokens. */
export function registerAccountRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;
  const credentialsOf = async (userId: number) => {
    const [row] = await db.query<{ username: string; password_hash: string | null; otp_secret: string | null; otp_pending_secret: string | null; is_ldap: boolean }>(
      'select username, password_hash, otp_secret, otp_pending_secret, is_ldap from users where id = $1',
      [userId],
    );
    if (!row) throw notFound();
    return row;
  };

  routes.add({
    method: 'GET', url: '/api/me', name: 'me.read', summary: 'The signed-in user with permissions', access: 'account',
    handler: async (request) => {
      const caller = callerOf(request);
      const user = await userById(db, caller.companyId, caller.userId);
      const { otp_secret } = await credentialsOf(caller.userId);
      return { ...describeUser(user), company_id: caller.companyId, permissions: [...caller.permissions].sort(), otp_enabled: otp_secret !== null, password_expired: caller.passwordExpired };
    },
  });

  routes.add({
    method: 'POST', url: '/api/password', name: 'me.change_password', summary: 'Change the password (also when it has expired)', access: 'account',
    body: 'cartograph:api/password-change',
    handler: async (request) => {
      const caller = callerOf(request);
      const { old_password, new_password } = request.body as { old_password: string; new_password: string };
      const credentials = await credentialsOf(caller.userId);
      if (credentials.is_ldap) throw detailError(400, 'This account signs in through LDAP; change the password in the directory.');
      if (!(await verifyPassword(credentials.password_hash, old_password))) throw fieldError('old_password', 'Wrong password.');
      const problems = passwordPolicyErrors(new_password, credentials.username);
      if (old_password === new_password) problems.push('The new password must differ from the current one.');
      if (problems.length) throw fieldError('new_password', ...problems);
      await db.query('update users set password_hash = $2, password_changed_at = now(), password_expired = false, updated_at = now() where id = $1', [caller.userId, await hashPassword(new_password)]);
      return issueAccess(context, caller.userId);
    },
  });

  routes.add({
    method: 'GET', url: '/api/otp', name: 'otp.read', summary: 'Whether one-time passwords are on', access: 'account',
    handler: async (request) => {
      const { userId } = callerOf(request);
      const enabled = (await credentialsOf(userId)).otp_secret !== null;
      return { enabled, recovery_codes_left: enabled ? await recoveryCodesLeft(db, userId) : 0 };
    },
  });
  routes.add({
    method: 'POST', url: '/api/otp/setup', name: 'otp.setup', summary: 'Start enrolling an authenticator app', access: 'account',
    handler: async (request) => {
      const caller = callerOf(request);
      const { secret, otpauthUrl } = newOtpEnrolment(caller.username);
      await db.query('update users set otp_pending_secret = $2 where id = $1', [caller.userId, sealOtpSecret(context.keys.secretsKey, secret)]);
      return { secret, otpauth_url: otpauthUrl };
    },
  });
  routes.add({
    method: 'POST', url: '/api/otp/cancel', name: 'otp.cancel', summary: 'Abandon an enrolment that was started', access: 'account',
    handler: async (request) => {
      await db.query('update users set otp_pending_secret = null where id = $1', [callerOf(request).userId]);
      return { enabled: (await credentialsOf(callerOf(request).userId)).otp_secret !== null };
    },
  });
  routes.add({
    method: 'POST', url: '/api/otp/confirm', name: 'otp.confirm', summary: 'Finish enrolment with a code from the app', access: 'account',
    body: 'cartograph:api/otp-confirm',
    handler: async (request) => {
      const caller = callerOf(request);
      const { otp_pending_secret } = await credentialsOf(caller.userId);
      if (!otp_pending_secret) throw detailError(400, 'Start the enrolment first.', 'otp_not_started');
      const { code } = request.body as { code: string };
      if (!(await verifyOtpCode(context.keys.secretsKey, otp_pending_secret, code))) throw fieldError('code', 'Invalid one-time password.');
      // The recovery codes are answered here only: shown once, kept as digests.
      const recoveryCodes = await db.transaction(async (transaction) => {
        await transaction.query('update users set otp_secret = otp_pending_secret, otp_pending_secret = null where id = $1', [caller.userId]);
        return issueRecoveryCodes(transaction, caller.userId);
      });
      return { enabled: true, recovery_codes: recoveryCodes };
    },
  });
  routes.add({
    method: 'POST', url: '/api/otp/disable', name: 'otp.disable', summary: 'Turn one-time passwords off (needs the password)', access: 'account',
    body: 'cartograph:api/otp-disable',
    handler: async (request) => {
      const caller = callerOf(request);
      const { password } = request.body as { password: string };
      if (!(await verifyPassword((await credentialsOf(caller.userId)).password_hash, password))) throw fieldError('password', 'Wrong password.');
      await db.transaction((transaction) => removeSecondFactor(transaction, caller.userId));
      return { enabled: false };
    },
  });

  routes.add({
    method: 'GET', url: '/api/tokens', name: 'api_tokens.list', summary: "The caller's API tokens", access: 'authtoken.view_token',
    handler: async (request) =>
      db.query<TokenRow>('select id, name, created_at, expires_at, last_used_at from api_tokens where user_id = $1 order by id', [callerOf(request).userId]),
  });
  routes.add({
    method: 'POST', url: '/api/tokens', name: 'api_tokens.create', summary: 'Create an API token (shown once)', access: 'authtoken.add_token',
    body: 'cartograph:api/api-token-create', status: 201,
    handler: async (request) => {
      const { name, ...lifetime } = request.body as { name: string } & TokenLifetimeRequest;
      const caller = callerOf(request);
      const expiresAt = tokenExpiry(lifetime, await loadApiTokenSettings(db, caller.companyId));
      const token = `cgt_${randomBytes(32).toString('base64url')}`;
      const [row] = await db.query<TokenRow>(
        `insert into api_tokens (user_id, name, token_hash, expires_at) values ($1, $2, $3, $4)
         returning id, name, created_at, expires_at, last_used_at`,
        [caller.userId, name, hashToken(token), expiresAt],
      );
      return { ...row, token };
    },
  });
  routes.add({
    method: 'DELETE', url: '/api/tokens/:id', name: 'api_tokens.delete', summary: 'Revoke an API token', access: 'authtoken.delete_token',
    params: 'cartograph:api/id-params',
    handler: async (request) => {
      const { id } = request.params as { id: number };
      const deleted = await db.query('delete from api_tokens where id = $1 and user_id = $2 returning id', [id, callerOf(request).userId]);
      if (!deleted.length) throw notFound();
    },
  });
  routes.add({
    method: 'GET', url: '/configurations/api-tokens', name: 'api_token_settings.read', summary: "The company's maximum API token lifetime",
    access: 'configurations.view_companysettings',
    handler: async (request) => loadApiTokenSettings(db, callerOf(request).companyId),
  });
  routes.add({
    method: 'PUT', url: '/configurations/api-tokens', name: 'api_token_settings.update', summary: "Change the company's maximum API token lifetime",
    access: 'configurations.change_companysettings', body: 'cartograph:settings/api-tokens',
    handler: async (request) => saveApiTokenSettings(db, callerOf(request).companyId, request.body as ApiTokenSettings),
  });
}
