import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { issueAccess } from '../../identity/accessIssuer.js';
import { insecureAllowed } from '../../sso/oidcClient.js';
import { generateServiceProviderMetadata } from '@node-saml/node-saml';
import { samlCallbackPath, samlMetadataPath, samlSettingsProblem, spEntityIdOf } from '../../sso/samlClient.js';
import { callbackPath, finishSamlSignIn, finishSsoSignIn, redeemHandoff, startSsoSignIn } from '../../sso/ssoFlow.js';
import { companiesWithSso, readSsoSettings, writeSsoSettings, type SsoSettings } from '../../sso/ssoSettings.js';
import { detailError, fieldError, refusalAnswer } from '../errors.js';
import { callerOf, type RouteCatalogue } from '../routes.js';

/** The origin the browser reached this server at; the provider's callback URL is built on it. */
const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** Where the console shows a refused answer. */
const refusedTarget = `/#/sso?${new URLSearchParams({ error: 'The identity provider\'s answer could not be verified. Start again.' })}`;

/**
 * Single sign-on (OpenID Connect or SAML 2.0): the per-company settings, the sign-in start, the provider's callback
 * (a redirect for OpenID Connect, a form post for SAML), the SAML service provider's metadata, the hand-off.
 */
export function registerSsoRoutes(routes: RouteCatalogue, context: AppContext): void {
  const { db } = context;
  const rateLimitPerMinute = context.config.signInRateLimitPerMinute;
  routes.add({
    method: 'GET', url: '/configurations/sso-configuration', name: 'sso_configuration.read', summary: 'The company\'s OpenID Connect provider and group mapping (secret masked)',
    access: 'configurations.view_companysettings',
    handler: async (request) => readSsoSettings(db, callerOf(request).companyId),
  });
  routes.add({
    method: 'PUT', url: '/configurations/sso-configuration', name: 'sso_configuration.update', summary: 'Change the company\'s OpenID Connect provider and group mapping',
    access: 'configurations.change_companysettings', body: 'cartograph:settings/sso-configuration',
    handler: async (request) => {
      const body = request.body as SsoSettings;
      const oidcOn = body.enabled && body.protocol === 'oidc';
      if (oidcOn && !body.issuer) throw fieldError('issuer', 'The issuer is required to switch single sign-on on.');
      if (oidcOn && !body.client_id) throw fieldError('client_id', 'The client id is required to switch single sign-on on.');
      const samlProblem = samlSettingsProblem(body);
      if (samlProblem) throw fieldError(samlProblem.field, samlProblem.message);
      if (body.issuer) {
        const issuer = URL.canParse(body.issuer) ? new URL(body.issuer) : null;
        if (!issuer || (issuer.protocol !== 'https:' && !insecureAllowed(issuer))) throw fieldError('issuer', 'The issuer must be an https URL.');
      }
      return writeSsoSettings(db, context.keys.secretsKey, callerOf(request).companyId, body);
    },
  });
  routes.add({
    method: 'GET', url: '/api/sso', name: 'sso.options', summary: 'Whether single sign-on is offered, and whether the sign-in page must ask for a domain', access: 'public',
    handler: async () => {
      const companies = await companiesWithSso(db);
      return { enabled: companies.length > 0, domain_required: companies.length > 1 };
    },
  });
  routes.add({
    method: 'POST', url: '/api/sso/start', name: 'sso.start', summary: 'Start a sign-in at the company\'s identity provider (answers the URL to open)', access: 'public',
    body: 'cartograph:api/sso-start', rateLimitPerMinute,
    handler: async (request) => {
      try {
        return await startSsoSignIn(context, request.body as { domain?: string; redirect?: string }, originOf(request));
      } catch (error) {
        if (refusalAnswer(error) || (error as { status?: number }).status) throw error;
        request.log.warn({ err: error }, 'single sign-on: the identity provider could not be reached');
        throw detailError(502, 'The identity provider could not be reached. Try again later or sign in with a password.', 'sso_provider_unreachable');
      }
    },
  });
  routes.add({
    method: 'GET', url: callbackPath, name: 'sso.callback', summary: 'The identity provider\'s redirect back: signs the user in and opens the console', access: 'public',
    query: 'cartograph:api/sso-callback-query', rateLimitPerMinute,
    handler: async (request, reply) => {
      let target: string;
      try {
        target = await finishSsoSignIn(context, request.query as Record<string, string>, originOf(request), request.url);
      } catch (error) {
        request.log.warn({ err: error }, 'single sign-on: the provider\'s answer was refused');
        target = refusedTarget;
      }
      return reply.redirect(target, 302);
    },
  });
  routes.add({
    method: 'POST', url: samlCallbackPath, name: 'sso.saml_callback', summary: 'The SAML provider\'s answer (HTTP-POST binding): signs the user in and opens the console', access: 'public',
    body: 'cartograph:api/sso-saml-response', rateLimitPerMinute,
    handler: async (request, reply) => {
      let target: string;
      try {
        target = await finishSamlSignIn(context, request.body as { SAMLResponse: string; RelayState?: string }, originOf(request));
      } catch (error) {
        request.log.warn({ err: error }, 'single sign-on: the SAML answer was refused');
        target = refusedTarget;
      }
      // 303: the browser follows a form post's answer with a GET.
      return reply.redirect(target, 303);
    },
  });
  routes.add({
    method: 'GET', url: samlMetadataPath, name: 'sso.saml_metadata', summary: 'This server\'s SAML service provider metadata, to register it at the provider', access: 'public',
    handler: async (request, reply) => {
      const origin = originOf(request);
      const metadata = generateServiceProviderMetadata({
        issuer: spEntityIdOf({ saml_sp_entity_id: '' }, origin), callbackUrl: new URL(samlCallbackPath, origin).href, identifierFormat: null, wantAssertionsSigned: true,
      });
      return reply.type('application/samlmetadata+xml').send(metadata);
    },
  });
  routes.add({
    method: 'POST', url: '/api/token/sso', name: 'token.obtain_sso', summary: 'Exchange the single sign-on hand-off code for an access token', access: 'public',
    body: 'cartograph:api/sso-handoff', rateLimitPerMinute,
    handler: async (request) => {
      const userId = await redeemHandoff(context, (request.body as { code: string }).code);
      if (userId === null) throw detailError(401, 'This sign-in expired or was already used. Start again.', 'invalid_sso_handoff');
      return issueAccess(context, userId);
    },
  });
}
