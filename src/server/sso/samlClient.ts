import { X509Certificate } from 'node:crypto';
import { SAML, ValidateInResponseTo, type CacheProvider } from '@node-saml/node-saml';
import { insecureAllowed } from './oidcClient.js';
import type { SsoSettings } from './ssoSettings.js';

export const samlCallbackPath = '/api/sso/saml/callback';
export const samlMetadataPath = '/api/sso/saml/metadata';

const requestLifetimeMs = 10 * 60_000;

/** Cartograph's entity id at the provider: the configured one, else this server's metadata URL. */
export const spEntityIdOf = (settings: Pick<SsoSettings, 'saml_sp_entity_id'>, origin: string) => settings.saml_sp_entity_id || new URL(samlMetadataPath, origin).href;

/** Why a SAML setting cannot be used, or null: the entry point must be https (http on loopback only), the certificate PEM. */
export function samlSettingsProblem(settings: SsoSettings): { field: string; message: string } | null {
  const entryPoint = URL.canParse(settings.saml_entry_point) ? new URL(settings.saml_entry_point) : null;
  if (settings.saml_entry_point && (!entryPoint || (entryPoint.protocol !== 'https:' && !insecureAllowed(entryPoint)))) {
    return { field: 'saml_entry_point', message: 'The single sign-on URL must be an https URL.' };
  }
  if (settings.saml_idp_certificate) {
    try {
      new X509Certificate(settings.saml_idp_certificate);
    } catch {
      return { field: 'saml_idp_certificate', message: 'This is not a PEM certificate.' };
    }
  }
  if (!settings.enabled || settings.protocol !== 'saml') return null;
  if (!settings.saml_entry_point) return { field: 'saml_entry_point', message: 'The single sign-on URL is required to switch SAML sign-in on.' };
  if (!settings.saml_idp_certificate) return { field: 'saml_idp_certificate', message: 'The provider\'s signing certificate is required to switch SAML sign-in on.' };
  return null;
}

/**
 * node-saml checks that an answer is InResponseTo a request it sent through a cache of request ids. Cartograph keeps
 * the id with the sign-in's state row instead (any API process may receive the answer), so each SAML object gets a
 * cache of at most the one request it starts (`sent`) or expects (`expected`).
 */
function oneRequestCache(expected: string | null): CacheProvider & { sent: () => string | null } {
  let sent: string | null = null;
  return {
    sent: () => sent,
    saveAsync: async (key, value) => {
      sent = key;
      return { value, createdAt: Date.now() };
    },
    getAsync: async (key) => (key === expected ? new Date().toISOString() : null),
    removeAsync: async (key) => key,
  };
}

/** The SAML service provider for a company's settings; `expectedRequest` is the id an answer must respond to. */
export function samlProvider(settings: SsoSettings, origin: string, expectedRequest: string | null = null) {
  const cache = oneRequestCache(expectedRequest);
  const spEntityId = spEntityIdOf(settings, origin);
  const saml = new SAML({
    entryPoint: settings.saml_entry_point,
    idpCert: settings.saml_idp_certificate,
    idpIssuer: settings.saml_idp_issuer || undefined,
    issuer: spEntityId,
    audience: spEntityId,
    callbackUrl: new URL(samlCallbackPath, origin).href,
    identifierFormat: null,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: requestLifetimeMs,
    cacheProvider: cache,
    acceptedClockSkewMs: 60_000,
  });
  return { saml, sentRequestId: cache.sent };
}
