import * as oidc from 'openid-client';
import { fetch as undiciFetch } from 'undici';
import type { OutboundPolicy } from '../outbound/guard.js';
import { guardedDispatcher } from '../outbound/http.js';
import type { SsoSettings } from './ssoSettings.js';

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Plain http is accepted only for a provider on this machine (a test or a local proxy); anything else must be https. */
export function insecureAllowed(issuer: URL): boolean {
  return issuer.protocol === 'http:' && loopbackHosts.has(issuer.hostname);
}

/**
 * openid-client's fetch through the outbound guard: discovery, JWKS, token and userinfo calls connect only where the
 * company's policy allows (openid-client follows no redirect itself).
 */
function guardedOidcFetch(outbound: OutboundPolicy): oidc.CustomFetch {
  const dispatcher = guardedDispatcher({ verifySsl: true }, outbound);
  return ((url: string, options: oidc.CustomFetchOptions) =>
    undiciFetch(url, { ...(options as object), dispatcher } as Parameters<typeof undiciFetch>[1])) as unknown as oidc.CustomFetch;
}

/** The provider's configuration, read from its discovery document, for the company's client. */
export async function providerConfiguration(settings: SsoSettings, outbound: OutboundPolicy): Promise<oidc.Configuration> {
  const issuer = new URL(settings.issuer);
  if (issuer.protocol !== 'https:' && !insecureAllowed(issuer)) throw new Error('The issuer must be an https URL.');
  return oidc.discovery(issuer, settings.client_id, settings.client_secret || undefined, undefined, {
    ...(insecureAllowed(issuer) && { execute: [oidc.allowInsecureRequests] }),
    [oidc.customFetch]: guardedOidcFetch(outbound),
    timeout: 10,
  });
}

/** The scopes asked for: the configured ones, openid always among them. */
export function scopesOf(settings: SsoSettings): string {
  const scopes = settings.scopes.split(' ').filter(Boolean);
  return (scopes.includes('openid') ? scopes : ['openid', ...scopes]).join(' ');
}
