import { randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import { hashToken } from '../auth/tokenHash.js';
import type { AppContext } from '../context.js';
import { fieldError } from '../errors.js';
import { outboundPolicyFor } from '../outbound/policy.js';
import { providerConfiguration, scopesOf } from './oidcClient.js';
import { samlProvider } from './samlClient.js';
import { companiesWithSso, openSsoSettings, type SsoSettings } from './ssoSettings.js';
import { provisionSsoUser, SsoRefusal, type IdTokenClaims } from './ssoUsers.js';

export const callbackPath = '/api/sso/callback';
const requestLifetime = '10 minutes';
const handoffLifetime = '60 seconds';

/** The company a sign-in is for: the verified owner of the domain (of an e-mail address), or the only company with single sign-on. */
async function companyFor(context: AppContext, domainOrEmail: string | undefined): Promise<number> {
  const enabled = await companiesWithSso(context.db);
  const domain = domainOrEmail?.split('@').at(-1)?.trim().toLowerCase();
  if (!domain) {
    if (enabled.length === 1) return enabled[0]!;
    throw fieldError('domain', 'Enter your work e-mail address or your company\'s domain.');
  }
  // Only a verified claim routes a sign-in: a company cannot draw another's users to its provider by naming their domain.
  const [row] = await context.db.query<{ company_id: number }>('select company_id from domains where lower(domain) = $1 and verified_at is not null', [domain]);
  if (!row || !enabled.includes(row.company_id)) throw fieldError('domain', 'Single sign-on is not set up for this domain.');
  return row.company_id;
}

/** Remembers a sign-in started: a row good once, for ten minutes, found again by its state. */
async function rememberRequest(context: AppContext, request: { state: string; companyId: number; codeVerifier: string; nonce: string; redirect?: string }): Promise<void> {
  await context.db.query(`delete from sso_requests where created_at < now() - interval '${requestLifetime}'`);
  await context.db.query('insert into sso_requests (state, company_id, code_verifier, nonce, redirect) values ($1, $2, $3, $4, $5)', [request.state, request.companyId, request.codeVerifier, request.nonce, request.redirect ?? '/']);
}

type PendingRequest = { company_id: number; code_verifier: string; nonce: string; redirect: string };

/** The sign-in a state names, used up: null when unknown, expired or already answered. */
async function takeRequest(context: AppContext, state: string | undefined): Promise<PendingRequest | null> {
  if (!state) return null;
  const [pending] = await context.db.query<PendingRequest>(
    `delete from sso_requests where state = $1 and created_at > now() - interval '${requestLifetime}' returning company_id, code_verifier, nonce, redirect`,
    [state],
  );
  return pending ?? null;
}

/**
 * Starts a sign-in and answers the provider's URL to open. OpenID Connect: state, nonce and PKCE verifier are
 * remembered. SAML: the AuthnRequest's id is remembered (in the nonce column) under the RelayState, so the answer
 * must respond to this very request.
 */
export async function startSsoSignIn(context: AppContext, body: { domain?: string; redirect?: string }, origin: string): Promise<{ authorization_url: string }> {
  const companyId = await companyFor(context, body.domain);
  const settings = await openSsoSettings(context.db, context.keys.secretsKey, companyId);
  if (settings.protocol === 'saml') {
    const { saml, sentRequestId } = samlProvider(settings, origin);
    const state = oidc.randomState();
    const url = await saml.getAuthorizeUrlAsync(state, undefined, {});
    await rememberRequest(context, { state, companyId, codeVerifier: '', nonce: sentRequestId() ?? '', redirect: body.redirect });
    return { authorization_url: url };
  }
  const configuration = await providerConfiguration(settings, await outboundPolicyFor(context.db, context.config, companyId));
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  await rememberRequest(context, { state, companyId, codeVerifier, nonce, redirect: body.redirect });
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
  const pending = await takeRequest(context, query.state);
  if (!pending) return consoleSso({ error: expired });
  const settings = await openSsoSettings(context.db, context.keys.secretsKey, pending.company_id);
  if (!settings.enabled || settings.protocol !== 'oidc') return consoleSso({ error: switchedOff });
  return handOff(context, pending, settings, async () => {
    const configuration = await providerConfiguration(settings, await outboundPolicyFor(context.db, context.config, pending.company_id));
    const tokens = await oidc.authorizationCodeGrant(configuration, new URL(requestUrl, origin), {
      pkceCodeVerifier: pending.code_verifier,
      expectedState: query.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims() as IdTokenClaims;
    // Providers put profile and group claims in the ID token or only behind the userinfo endpoint: read both.
    const userInfo = await oidc.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
    return { ...userInfo, ...idClaims } as IdTokenClaims;
  });
}

/**
 * The provider's SAML answer (HTTP-POST binding): the assertion's signature, audience, times and InResponseTo (the
 * request this RelayState started) are checked by node-saml; the NameID is the subject and the attributes are the claims.
 */
export async function finishSamlSignIn(context: AppContext, body: { SAMLResponse: string; RelayState?: string }, origin: string): Promise<string> {
  const pending = await takeRequest(context, body.RelayState);
  if (!pending) return consoleSso({ error: expired });
  const settings = await openSsoSettings(context.db, context.keys.secretsKey, pending.company_id);
  if (!settings.enabled || settings.protocol !== 'saml') return consoleSso({ error: switchedOff });
  return handOff(context, pending, settings, async () => {
    const { profile } = await samlProvider(settings, origin, pending.nonce).saml.validatePostResponseAsync({ SAMLResponse: body.SAMLResponse });
    if (!profile?.nameID) throw new SsoRefusal('The identity provider\'s answer names no user.');
    const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
    return { ...attributes, email: profile.email ?? profile.mail ?? attributes.email, sub: profile.nameID };
  });
}

const expired = 'This sign-in expired or was already used. Start again.';
const switchedOff = 'Single sign-on was switched off for your company.';

/**
 * Creates or updates the user the provider vouched for (`claimsOf` reads and checks its answer) and sends the browser
 * to the console with a one-time hand-off code. Answers the console URL to go to.
 */
async function handOff(context: AppContext, pending: PendingRequest, settings: SsoSettings, claimsOf: () => Promise<IdTokenClaims>): Promise<string> {
  try {
    const claims = await claimsOf();
    const code = randomBytes(32).toString('base64url');
    await context.db.transaction(async (connection) => {
      const userId = await provisionSsoUser(connection, pending.company_id, settings, claims);
      await connection.query('insert into sso_handoffs (code_hash, user_id) values ($1, $2)', [hashToken(code), userId]);
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
    [hashToken(code)],
  );
  return row?.user_id ?? null;
}
