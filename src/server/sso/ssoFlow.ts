import { createHash, randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import type { AppContext } from '../context.js';
import { fieldError } from '../http/errors.js';
import { providerConfiguration, scopesOf } from './oidcClient.js';
import { companiesWithSso, openSsoSettings } from './ssoSettings.js';
import { provisionSsoUser, SsoRefusal, type IdTokenClaims } from './ssoUsers.js';

export const callbackPath = '/api/sso/callback';
const requestLifetime = '10 minutes';
const handoffLifetime = '60 seconds';

const hashOf = (code: string) => createHash('sha256').update(code).digest('hex');

/** The company a sign-in is for: the owner of the domain (of an e-mail address), or the only company with single sign-on. */
async function companyFor(context: AppContext, domainOrEmail: string | undefined): Promise<number> {
  const enabled = await companiesWithSso(context.db);
  const domain = domainOrEmail?.split('@').at(-1)?.trim().toLowerCase();
  if (!domain) {
    if (enabled.length === 1) return enabled[0]!;
    throw fieldError('domain', 'Enter your work e-mail address or your company\'s domain.');
  }
  const [row] = await context.db.query<{ company_id: number }>('select company_id from domains where lower(domain) = $1', [domain]);
  if (!row || !enabled.includes(row.company_id)) throw fieldError('domain', 'Single sign-on is not set up for this domain.');
  return row.company_id;
}

/** Starts a sign-in: remembers state, nonce and PKCE verifier, and answers the provider's authorization URL. */
export async function startSsoSignIn(context: AppContext, body: { domain?: string; redirect?: string }, origin: string): Promise<{ authorization_url: string }> {
  const companyId = await companyFor(context, body.domain);
  const settings = await openSsoSettings(context.db, context.keys.secretsKey, companyId);
  const configuration = await providerConfiguration(settings);
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  await context.db.query(`delete from sso_requests where created_at < now() - interval '${requestLifetime}'`);
  await context.db.query('insert into sso_requests (state, company_id, code_verifier, nonce, redirect) values ($1, $2, $3, $4, $5)', [state, companyId, codeVerifier, nonce, body.redirect ?? '/']);
  const url = oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: new URL(callbackPath, origin).href, // normalised as the callback's URL will be (no default port)
    scope: scopesOf(settings),
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { authorization_url: url.href };
}

/** Where the console shows the outcome: /sso with a one-time hand-off code, or with the error to show. */
const consoleSso = (search: Record<string, string>) => `/#/sso?${new URLSearchParams(search).toString()}`;

/**
 * The provider's answer: the code is exchanged (PKCE, state and nonce checked by openid-client), the user is created or
 * updated, and the browser is sent to the console with a one-time hand-off code. Answers the console URL to go to.
 */
export async function finishSsoSignIn(context: AppContext, query: Record<string, string>, origin: string, requestUrl: string): Promise<string> {
  if (query.error) return consoleSso({ error: query.error_description || query.error });
  const [pending] = query.state
    ? await context.db.query<{ company_id: number; code_verifier: string; nonce: string; redirect: string }>(
        `delete from sso_requests where state = $1 and created_at > now() - interval '${requestLifetime}' returning company_id, code_verifier, nonce, redirect`,
        [query.state],
      )
    : [];
  if (!pending) return consoleSso({ error: 'This sign-in expired or was already used. Start again.' });
  try {
    const settings = await openSsoSettings(context.db, context.keys.secretsKey, pending.company_id);
    if (!settings.enabled) return consoleSso({ error: 'Single sign-on was switched off for your company.' });
    const configuration = await providerConfiguration(settings);
    const tokens = await oidc.authorizationCodeGrant(configuration, new URL(requestUrl, origin), {
      pkceCodeVerifier: pending.code_verifier,
      expectedState: query.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims() as IdTokenClaims;
    // Providers put profile and group claims in the ID token or only behind the userinfo endpoint: read both.
    const userInfo = await oidc.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
    const claims = { ...userInfo, ...idClaims } as IdTokenClaims;
    const code = randomBytes(32).toString('base64url');
    await context.db.transaction(async (connection) => {
      const userId = await provisionSsoUser(connection, pending.company_id, settings, claims);
      await connection.query('insert into sso_handoffs (code_hash, user_id) values ($1, $2)', [hashOf(code), userId]);
    });
    return consoleSso({ handoff: code, redirect: pending.redirect });
  } catch (error) {
    if (error instanceof SsoRefusal) return consoleSso({ error: error.message });
    throw error;
  }
}

/** The user a hand-off code names, once, within a minute of the callback; null otherwise. */
export async function redeemHandoff(context: AppContext, code: string): Promise<number | null> {
  await context.db.query(`delete from sso_handoffs where created_at < now() - interval '${handoffLifetime}'`);
  const [row] = await context.db.query<{ user_id: number }>(
    `delete from sso_handoffs h using users u join companies c on c.id = u.company_id
      where h.code_hash = $1 and u.id = h.user_id and u.is_active and c.is_active returning h.user_id`,
    [hashOf(code)],
  );
  return row?.user_id ?? null;
}
