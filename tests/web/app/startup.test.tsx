import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildAdminCompanies } from '../../../src/web/app/session/adminCompanies';
import { getSession } from '../../../src/web/app/session/session';
import { loadStartup } from '../../../src/web/app/session/startup';
import { adminUser, freshSession, serveApi, tokenWith } from './helpers';

afterEach(() => vi.unstubAllGlobals());

const adapter = (slug: string) => ({ id: slug, name: slug, slug, categories: ['device'], status: 4 });
// An administrator: custom adapters need customs.view_data.
const administrator = { ...adminUser, permissions: [...adminUser.permissions, 'customs.view_data'] };
const everything = {
  'GET /api/me': { body: administrator },
  'GET /api/company': { body: { id: 1, name: 'Acme', domain: 'acme.test' } },
  'GET /configurations/license': { body: { modules: ['device_inventory'] } },
  'GET /configurations/company': { body: { password_expiry_days: 90 } },
  'GET /adapters/adapters': { body: { count: 3, results: [adapter('cartograph'), adapter('okta'), adapter('azure')] } },
  'GET /customs/adapters': { body: { count: 1, results: [{ ...adapter('inhouse'), status: 4 }] } },
  'GET /dashboards/dashboards': { body: { count: 1, results: [{ id: 7, name: 'Main' }] } },
  'GET /avm/enrichments': { body: { count: 1, results: [{ slug: 'kev', name: 'CISA KEV' }] } },
  'GET /api/admins': { body: { public: { id: 1, name: 'Provider', domain: 'provider.test' }, results: [] } },
};

describe('the start-up load', () => {
  it('loads user, adapters, company, license and company configuration, dashboards, enrichments and admin companies with the spec page sizes', async () => {
    freshSession(tokenWith({ adapters: ['*'] }));
    const calls = serveApi(everything);
    await loadStartup();
    const session = getSession();
    expect(session).toMatchObject({ started: true, fetchingUser: false, user: { username: 'admin' }, company: { name: 'Acme' }, license: { modules: ['device_inventory'] } });
    expect(session.companyConfiguration).toEqual({ password_expiry_days: 90 });
    expect(session.dashboards).toEqual([{ id: 7, name: 'Main' }]);
    expect(session.enrichments).toEqual([{ slug: 'kev', name: 'CISA KEV' }]);
    expect(session.adminCompanies).toEqual([{ id: 1, name: 'Provider', domain: 'provider.test' }]);
    const urls = calls.map((call) => call.url);
    expect(urls).toEqual(
      expect.arrayContaining([
        '/adapters/adapters?page=1&size=1000',
        '/customs/adapters?page=1&size=1000',
        '/dashboards/dashboards?size=500',
        '/avm/enrichments?page=1&size=1000',
      ]),
    );
  });

  it('merges custom adapters (marked custom, status done) and keeps only the adapters the token allows', async () => {
    freshSession(tokenWith({ adapters: ['okta', 'inhouse'] }));
    serveApi(everything);
    await loadStartup();
    expect(getSession().adapters).toEqual([
      { ...adapter('okta') },
      { ...adapter('inhouse'), custom: true, status: 1 },
    ]);
  });

  it('is silent when the custom adapters cannot be loaded and keeps the catalogue', async () => {
    freshSession(tokenWith({ adapters: ['*'] }));
    serveApi({ ...everything, 'GET /customs/adapters': { status: 404, body: { detail: 'Not found.' } } });
    await loadStartup();
    expect(getSession().adapters.map((entry) => entry.slug)).toEqual(['cartograph', 'okta', 'azure']);
  });

  it('fetches no enrichments without avm.view_vulnerabilityenrichment', async () => {
    freshSession(tokenWith({}));
    const calls = serveApi({ ...everything, 'GET /api/me': { body: { ...adminUser, permissions: [] } } });
    await loadStartup();
    expect(getSession().enrichments).toEqual([]);
    expect(calls.some((call) => call.url.startsWith('/avm/'))).toBe(false);
  });

  it('asks for no custom adapters without customs.view_data', async () => {
    freshSession(tokenWith({ adapters: ['*'] }));
    const calls = serveApi({ ...everything, 'GET /api/me': { body: adminUser } });
    await loadStartup();
    expect(calls.some((call) => call.url.startsWith('/customs/'))).toBe(false);
    expect(getSession().adapters.map((entry) => entry.slug)).toEqual(['cartograph', 'okta', 'azure']);
  });

  it('logs out when the company cannot be loaded', async () => {
    freshSession(tokenWith({}));
    serveApi({ ...everything, 'GET /api/company': { status: 404, body: { detail: 'Not found.' } } });
    await loadStartup();
    expect(getSession()).toMatchObject({ token: null, user: null, started: false });
  });

  it('keeps the session when dashboards, license or admin companies fail (they are silent or logged only)', async () => {
    freshSession(tokenWith({}));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    serveApi({ ...everything, 'GET /dashboards/dashboards': { status: 404 }, 'GET /configurations/license': { status: 500 }, 'GET /api/admins': { status: 404 } });
    await loadStartup();
    expect(getSession()).toMatchObject({ started: true, dashboards: [], license: null, adminCompanies: [] });
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});

describe('buildAdminCompanies', () => {
  it('puts the public company first, skips empty domains, removes duplicate ids and sorts by id', () => {
    expect(
      buildAdminCompanies({
        public: { id: 2, name: 'Provider', domain: 'provider.test' },
        results: [
          { company: 5, company_name: 'Five', company_domain: 'five.test' },
          { company: 3, company_name: 'No domain', company_domain: '' },
          { company: 2, company_name: 'Provider again', company_domain: 'provider.test' },
          { company: 1, company_name: 'One', company_domain: 'one.test' },
          { company: 5, company_name: 'Five twice', company_domain: 'five.test' },
        ],
      }),
    ).toEqual([
      { id: 1, name: 'One', domain: 'one.test' },
      { id: 2, name: 'Provider', domain: 'provider.test' },
      { id: 5, name: 'Five', domain: 'five.test' },
    ]);
  });
});
