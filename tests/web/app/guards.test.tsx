import { isRedirect } from '@tanstack/react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { middlewareFor, runGuards } from '../../../src/web/app/guards';
import { routeByPath, type RouteEntry } from '../../../src/web/app/routeTable';
import { getSession } from '../../../src/web/app/session/session';
import { adminUser, freshSession, serveApi, tokenWith } from './helpers';

// Endpoints these tests do not serve answer 404; the start-up load logs those as warnings, which are not under test here.
beforeEach(() => void vi.spyOn(console, 'warn').mockImplementation(() => undefined));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const route = (path: string): RouteEntry => {
  const entry = routeByPath(path);
  if (!entry) throw new Error(`no route ${path}`);
  return entry;
};

/** Where the guards of a route send the visitor: the redirect's path and search, or null when the route opens. */
async function outcome(path: string, fullPath = path): Promise<{ to: unknown; search?: unknown } | null> {
  try {
    await runGuards(route(path), fullPath);
    return null;
  } catch (error) {
    if (!isRedirect(error)) throw error;
    return { to: error.options.to, ...(error.options.search ? { search: error.options.search } : {}) };
  }
}

const signedIn = (user: Partial<typeof adminUser> = {}) => {
  freshSession(tokenWith({}));
  return serveApi({ 'GET /api/me': { body: { ...adminUser, ...user } }, 'GET /api/company': { body: { id: 1, name: 'Acme', domain: 'acme.test' } } });
};

describe('route guards', () => {
  it('sends an unauthenticated visitor to login with the full original path as redirect', async () => {
    freshSession();
    expect(await outcome('/settings/user', '/settings/user?page=2#top')).toEqual({ to: '/login', search: { redirect: '/settings/user?page=2#top' } });
    expect(await outcome('/', '/')).toEqual({ to: '/login', search: { redirect: '/' } });
    expect(await outcome('/forbidden')).toEqual({ to: '/login', search: { redirect: '/forbidden' } });
  });

  it('lets anyone open /login, /sso and /locked', async () => {
    freshSession();
    expect(await outcome('/login')).toBeNull();
    expect(await outcome('/sso')).toBeNull();
    expect(await outcome('/locked')).toBeNull();
  });

  it('sends an authenticated visitor away from /login to /', async () => {
    signedIn();
    expect(await outcome('/login')).toEqual({ to: '/' });
  });

  it('skips the start-up load on /sso and /locked even when signed in', async () => {
    const calls = signedIn();
    expect(await outcome('/sso')).toBeNull();
    expect(await outcome('/locked')).toBeNull();
    expect(calls).toEqual([]);
  });

  it('loads the user at start and opens a route whose permission the user holds', async () => {
    signedIn();
    expect(await outcome('/settings/user')).toBeNull();
    expect(getSession().user?.username).toBe('admin');
  });

  it('sends a user without the route permission to /forbidden', async () => {
    signedIn({ permissions: [] });
    expect(await outcome('/settings/user')).toEqual({ to: '/forbidden' });
    expect(await outcome('/settings/group/create')).toEqual({ to: '/forbidden' });
  });

  it('opens routes that need no permission for any signed-in user', async () => {
    signedIn({ permissions: [] });
    expect(await outcome('/')).toBeNull();
    expect(await outcome('/account-settings')).toBeNull();
    expect(await outcome('/forbidden')).toBeNull();
  });

  it('sends a user whose password expired to /password-expired, keeping the path to return to', async () => {
    const calls = signedIn({ password_expired: true });
    expect(await outcome('/settings/user', '/settings/user?x=1')).toEqual({ to: '/password-expired', search: { redirect: '/settings/user?x=1' } });
    expect(await outcome('/password-expired')).toBeNull();
    // Everything else answers 403 for such a user, so nothing but the user is loaded.
    expect(calls.map((call) => call.url)).toEqual(['/api/me']);
  });

  it('logs out and sends to login when the user cannot be loaded', async () => {
    freshSession(tokenWith({}));
    serveApi({ 'GET /api/me': { status: 500, body: { detail: 'Internal server error.' } } });
    expect(await outcome('/settings/user')).toEqual({ to: '/login', search: { redirect: '/settings/user' } });
    expect(getSession().token).toBeNull();
  });

  it('throws on an unknown middleware name', () => {
    expect(() => middlewareFor({ ...route('/'), middleware: ['auth', 'no-such-guard'] })).toThrow('Unknown route middleware "no-such-guard" on /');
    expect(() => middlewareFor({ ...route('/'), middleware: ['constructor'] })).toThrow('Unknown route middleware');
  });
});
