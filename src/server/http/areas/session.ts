import { hashToken } from '../../auth/tokenHash.js';
import type { AppContext } from '../../context.js';
import { issueAccess } from '../../identity/accessIssuer.js';
import { signInWithPassword } from '../../identity/signIn.js';
import { ldapSignInOffered, signInWithLdap } from '../../identity/ldap/ldapSignIn.js';
import { detailError } from '../errors.js';
import type { RouteCatalogue } from '../routes.js';

/** Sign-in: password (with the one-time-password step), LDAP, and API-token exchange. */
export function registerSessionRoutes(routes: RouteCatalogue, context: AppContext): void {
  const rateLimitPerMinute = context.config.signInRateLimitPerMinute;
  routes.add({ method: 'GET', url: '/api/ping', name: 'ping', summary: 'Answers pong', access: 'public', handler: async () => ({ pong: 'ok' }) });
  routes.add({
    method: 'POST',
    url: '/api/token',
    name: 'token.obtain',
    summary: 'Sign in with username and password (and the one-time password when enabled)',
    access: 'public',
    body: 'cartograph:api/token-request',
    rateLimitPerMinute,
    handler: (request) => signInWithPassword(context, request.body as { username: string; password: string; otp?: string }, request.ip),
  });
  routes.add({
    method: 'POST',
    url: '/api/token/ldap',
    name: 'token.obtain_ldap',
    summary: 'Sign in against the configured LDAP directory',
    access: 'public',
    body: 'cartograph:api/token-request',
    rateLimitPerMinute,
    handler: (request) => signInWithLdap(context, request.body as { username: string; password: string; otp?: string }, request.ip),
  });
  routes.add({
    method: 'GET', url: '/api/sign-in-methods', name: 'sign_in_methods', summary: 'Which sign-ins the login page offers (LDAP when a directory is configured)', access: 'public',
    handler: async () => ({ password: true, ldap: await ldapSignInOffered(context) }),
  });
  routes.add({
    method: 'POST',
    url: '/api/token/token',
    name: 'token.exchange',
    summary: 'Exchange an API token for an access token',
    access: 'public',
    body: 'cartograph:api/api-token-exchange',
    rateLimitPerMinute,
    handler: async (request) => {
      const { token } = request.body as { token: string };
      const [row] = await context.db.query<{ id: number; user_id: number }>(
        `update api_tokens t set last_used_at = now()
           from users u join companies c on c.id = u.company_id
          where t.token_hash = $1 and u.id = t.user_id and u.is_active and c.is_active and (t.expires_at is null or t.expires_at > now())
          returning t.id, t.user_id`,
        [hashToken(token)],
      );
      if (!row) throw detailError(401, 'Invalid or expired API token.', 'invalid_api_token');
      return issueAccess(context, row.user_id);
    },
  });
}
