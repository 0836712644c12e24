import { describe, expect, it } from 'vitest';
import { pageSourceFor } from '../../../src/web/app/pageModules';
import { routeTable, toRouterPath } from '../../../src/web/app/routeTable';
import routesMarkdown from './fixtures/routes.md?raw';

// A copy of shared/spec/routes.md (the expanded route list the console must serve), parsed row by row.
const specRows = routesMarkdown
  .split('\n')
  .map((line) => /^\| `([^`]+)` \| (\w+) \| ([^|]+)\|/.exec(line))
  .filter((match): match is RegExpExecArray => match !== null)
  .map(([, path, layout, permission]) => ({ path: path!, layout: layout!, permission: permission!.trim() }));

describe('schemas/routes.json', () => {
  it('has one row per route of routes.md and nothing else', () => {
    expect(specRows.length).toBeGreaterThan(100);
    expect(routeTable.map((route) => route.path).sort()).toEqual(specRows.map((row) => row.path).sort());
  });

  it.each(specRows)('$path has layout $layout and permission $permission', ({ path, layout, permission }) => {
    const route = routeTable.find((entry) => entry.path === path)!;
    expect(route.layout).toBe(layout);
    if (permission.startsWith('public')) {
      expect(route).toMatchObject({ public: true, permission: null });
    } else if (permission.startsWith('–')) {
      expect(route.permission).toBeNull();
      expect(route.public).toBeUndefined();
    } else {
      expect(route.permission).toBe(/`([^`]+)`/.exec(permission)![1]);
    }
  });

  it('names the login route auth-login and gives every route a unique name', () => {
    expect(routeTable.find((route) => route.path === '/login')?.name).toBe('auth-login');
    expect(new Set(routeTable.map((route) => route.name)).size).toBe(routeTable.length);
  });

  it('names a page for every route: a module under src/web/pages or a generic renderer with a schema', () => {
    for (const route of routeTable) {
      if (route.page.startsWith('generic:')) {
        expect(['generic:list', 'generic:form', 'generic:detail']).toContain(route.page);
        expect(route.schema).toMatch(/^cartograph:entities\//);
      } else {
        expect(route.page).toMatch(/^[a-z]+\/[A-Z][A-Za-z]+$/);
      }
    }
  });

  it('names only schemas that exist under schemas/entities', () => {
    const entitySchemas = import.meta.glob<{ $id: string }>('../../../schemas/entities/*.json', { eager: true, import: 'default' });
    const ids = new Set(Object.values(entitySchemas).map((schema) => schema.$id));
    for (const route of routeTable.filter((entry) => entry.schema)) expect(ids, route.path).toContain(route.schema);
  });

  it('turns {param} into the router form', () => {
    expect(toRouterPath('/dashboard/edit-chart/{dashboardId}/{id}')).toBe('/dashboard/edit-chart/$dashboardId/$id');
  });
});

describe('page resolution', () => {
  const loader = async () => ({});
  const login = routeTable.find((route) => route.path === '/login')!;
  const userList = routeTable.find((route) => route.path === '/settings/user')!;

  it('resolves auth/Login to pages/auth/Login.tsx and its named export', () => {
    expect(pageSourceFor(login, { '../pages/auth/Login.tsx': loader }, {})).toEqual({ load: loader, exportName: 'Login' });
    expect(pageSourceFor(login, { '../pages/auth/Login/Login.tsx': loader }, {})).toEqual({ load: loader, exportName: 'Login' });
  });

  it('answers nothing for a page whose module does not exist, so the route shows Not Found (deliberately)', () => {
    expect(pageSourceFor(login, {}, {})).toBeNull();
  });

  it('resolves generic routes to the renderers module once it exists, and to nothing before', () => {
    expect(pageSourceFor(userList, {}, {})).toBeNull();
    expect(pageSourceFor(userList, {}, { '../renderers/index.ts': loader })).toEqual({ load: loader, exportName: 'GenericListPage' });
  });

  it('finds the modules of the auth and system pages this issue builds', () => {
    for (const path of ['/login', '/sso', '/locked', '/forbidden', '/password-expired', '/permission-denied', '/', '/404']) {
      expect(pageSourceFor(routeTable.find((route) => route.path === path)!), path).not.toBeNull();
    }
  });
});
