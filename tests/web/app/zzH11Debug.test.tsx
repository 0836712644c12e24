import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { act, render, cleanup } from '@testing-library/react';
import { afterEach, it, vi } from 'vitest';
import { createConsoleRouter } from '../../../src/web/app/router';
import { createConsoleRouter as oldRouter } from '../../../src/web/app/routerOldH11';
import { adminUser, freshSession, serveApi, tokenWith } from './helpers';

vi.mock('@tanstack/react-router', async (importOriginal) => {
  const original = await importOriginal<typeof import('@tanstack/react-router')>();
  const React = await import('react');
  return { ...original, Navigate: (props: any) => {
    const router = original.useRouter();
    console.log('NAVIGATE-RENDER', JSON.stringify(props), router.state.location.pathname);
    React.useLayoutEffect(() => { console.log('NAVIGATE-EFFECT', router.state.location.pathname, router.state.status); void router.navigate(props); }, []);
    return null;
  } };
});
afterEach(() => { vi.unstubAllGlobals(); cleanup(); });
const answers = {
  'GET /api/me': { body: { ...adminUser, permissions: [...adminUser.permissions, 'dashboards.view_dashboard'] } },
  'GET /api/company': { body: { id: 1, name: 'Acme', domain: 'acme.test' } },
  'GET /dashboards/dashboards': { body: { count: 0, results: [] } },
};
for (const [name, make] of [['new', createConsoleRouter], ['old', oldRouter]] as const) {
  it(name, async () => {
    freshSession(tokenWith({}));
    serveApi(answers);
    const router = make({ history: createMemoryHistory({ initialEntries: ['/'] }) });
    await act(async () => {
      render(<QueryClientProvider client={new QueryClient()}><RouterProvider router={router} /></QueryClientProvider>);
      await router.load();
    });
    await act(async () => void (await new Promise((r) => setTimeout(r, 200))));
    console.log(name, 'after /', router.state.location.pathname);
    const history = router.history;
    const unsub = history.subscribe(({ location, action }) => console.log(name, 'HIST', action.type, location.pathname));
    const nav = router.navigate.bind(router);
    (router as any).navigate = (o: any) => { console.log(name, 'NAV', JSON.stringify(o.to ?? o.href), new Error().stack?.split('\n').slice(2,5).join(' | ')); return nav(o); };
    await act(() => router.navigate({ to: '/login' } as never));
    await act(async () => void (await new Promise((r) => setTimeout(r, 300))));
    console.log(name, 'after /login', router.state.location.pathname, history.location.pathname, router.state.status, JSON.stringify(router.state.matches.map((m) => [m.routeId, m.status])), document.body.innerHTML.length, document.querySelector('main')?.innerHTML.slice(0, 300));
  });
}
