import { describe, expect, it } from 'vitest';
import { dropExpiredToken, getSession, logout, updateSession } from '../../../src/web/app/session/session';
import { freshSession, tokenWith } from './helpers';

describe('logout', () => {
  it('clears token, user, decoded token, company, admin companies and fetch flags', () => {
    freshSession(tokenWith({}));
    updateSession({ user: { id: 1 } as never, company: { id: 1, name: 'Acme', domain: 'a' }, adminCompanies: [{ id: 1, name: 'A', domain: 'a' }], started: true, fetchingUser: true });
    logout();
    expect(getSession()).toMatchObject({ token: null, decoded: null, user: null, company: null, adminCompanies: [], started: false, fetchingUser: false });
    expect(localStorage.getItem('cartograph.token')).toBeNull();
  });

  it('clears the saved query of every pconfig- entry and keeps the rest of each entry and other keys', () => {
    freshSession(tokenWith({}));
    localStorage.setItem('pconfig-devices', JSON.stringify({ query: 'Hostname = web*', columns: ['Hostname'], size: 50 }));
    localStorage.setItem('pconfig-users', JSON.stringify({ columns: ['Name'] }));
    localStorage.setItem('pconfig-broken', 'not json');
    localStorage.setItem('theme', 'dark');
    logout();
    expect(JSON.parse(localStorage.getItem('pconfig-devices')!)).toEqual({ columns: ['Hostname'], size: 50 });
    expect(JSON.parse(localStorage.getItem('pconfig-users')!)).toEqual({ columns: ['Name'] });
    expect(localStorage.getItem('pconfig-broken')).toBe('not json');
    expect(localStorage.getItem('theme')).toBe('dark');
  });

  it('navigates to login with a redirect only when asked to', () => {
    const { navigations } = freshSession(tokenWith({}));
    logout();
    expect(navigations).toEqual([]);
    freshSession(tokenWith({}));
    const second = freshSession(tokenWith({}));
    logout({ redirect: '/device-inventory?page=3' });
    expect(second.navigations).toEqual([{ to: '/login', search: { redirect: '/device-inventory?page=3' } }]);
  });

  it('logs out at start when the token expired, comparing in seconds', () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 0, 900);
    const nowSeconds = Math.floor(now / 1000);
    freshSession(tokenWith({ exp: nowSeconds + 1 }));
    dropExpiredToken(now);
    expect(getSession().token).not.toBeNull();
    freshSession(tokenWith({ exp: nowSeconds }));
    dropExpiredToken(now);
    expect(getSession().token).toBeNull();
  });

  it('decodes the adapters list and expiry from the stored token', () => {
    freshSession(tokenWith({ adapters: ['okta'], exp: 2_000_000_000 }));
    expect(getSession().decoded).toMatchObject({ adapters: ['okta'], exp: 2_000_000_000 });
  });
});
