import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** A person known to the test identity provider: their subject and the claims it releases. */
export type ProviderAccount = { sub: string; email: string; preferred_username: string; given_name?: string; family_name?: string; groups: string[] };

export type RunningProvider = { issuer: string; clientId: string; clientSecret: string; stop: () => Promise<void> };

/**
 * A real OpenID Connect provider (`oidc-provider`) on loopback, with its development login form (any password) and
 * consent given in advance for the one client, so a sign-in is: open the authorization URL, type a login, submit.
 */
export async function startOidcProvider(redirectUris: string[], accounts: ProviderAccount[], host = 'localhost'): Promise<RunningProvider> {
  const clientId = 'cartograph-test';
  const clientSecret = 'provider-client-secret-for-tests';
  const bySub = new Map(accounts.map((account) => [account.sub, account]));
  let issuer = '';
  const build = (url: string) =>
    new Provider(url, {
      clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: redirectUris, grant_types: ['authorization_code'], response_types: ['code'] }],
      claims: { openid: ['sub'], email: ['email'], profile: ['preferred_username', 'given_name', 'family_name'], groups: ['groups'] },
      scopes: ['openid', 'email', 'profile', 'groups'],
      features: { devInteractions: { enabled: true } },
      cookies: { keys: ['test cookie key'] },
      // The client is first-party: the grant covers whatever it asks for, so no consent screen.
      loadExistingGrant: async (ctx) => {
        const grant = new ctx.oidc.provider.Grant({ clientId, accountId: ctx.oidc.session!.accountId! });
        grant.addOIDCScope('openid email profile groups');
        grant.addOIDCClaims(['email', 'preferred_username', 'given_name', 'family_name', 'groups']);
        await grant.save();
        return grant;
      },
      findAccount: async (_ctx, id) => {
        const account = bySub.get(id);
        return account ? { accountId: id, claims: async () => ({ ...account }) } : undefined;
      },
    });
  // The issuer holds the port, which is known only once listening: listen on a plain server first, then mount.
  const { createServer } = await import('node:http');
  let handler: ((req: never, res: never) => void) | null = null;
  const server = createServer((req, res) => (handler ? handler(req as never, res as never) : res.end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://${host}:${(server.address() as AddressInfo).port}`;
  handler = build(issuer).callback() as never;
  return {
    issuer,
    clientId,
    clientSecret,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A cookie jar small enough for one sign-in: name=value pairs from set-cookie headers. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1).trim());
    }
  }
  header = () => [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
}

/**
 * Signs in at the provider as `login` the way a browser would (redirects, cookies, the login form) and answers the
 * URL the provider finally sends the browser to (the client's redirect URI with code and state).
 */
export async function signInAtProvider(authorizationUrl: string, login: string, stopAt: string): Promise<URL> {
  const jar = new CookieJar();
  let url = new URL(authorizationUrl);
  let form: URLSearchParams | null = null;
  for (let hop = 0; hop < 15; hop++) {
    if (url.href.startsWith(stopAt)) return url;
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: jar.header(), ...(form && { 'content-type': 'application/x-www-form-urlencoded' }) },
      ...(form && { body: form.toString() }),
    });
    jar.take(response);
    form = null;
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url);
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action || !html.includes('name="login"')) throw new Error(`The provider answered ${response.status} without a login form: ${html.slice(0, 300)}`);
    form = new URLSearchParams({ prompt: 'login', login, password: 'any password' });
    url = new URL(action.replace(/&amp;/g, '&'), url);
  }
  throw new Error('The provider kept redirecting');
}
