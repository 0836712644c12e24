import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createConsoleRouter } from '../../../src/web/app/router';
import { getSession } from '../../../src/web/app/session/session';
import { adminUser, freshSession, serveApi, tokenWith } from './helpers';

beforeEach(() => void vi.spyOn(console, 'warn').mockImplementation(() => undefined));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/**
 * Every start-up call of spec §4 answered, with the permissions the visited pages need. No dashboards.view_dashboard:
 * `/` then stays the welcome page instead of handing over to the dashboard, which these shell tests do not render.
 */
const startupAnswers = {
  'GET /api/me': { body: { ...adminUser, permissions: [...adminUser.permissions, 'users.change_user'] } },
  'GET /api/company': { body: { id: 1, name: 'Acme', domain: 'acme.test' } },
  'GET /configurations/license': { body: { modules: [] } },
  'GET /configurations/company': { body: {} },
  'GET /adapters/adapters': { body: { count: 0, results: [] } },
  'GET /customs/adapters': { body: { count: 0, results: [] } },
  'GET /dashboards/dashboards': { body: { count: 0, results: [] } },
  'GET /avm/enrichments': { body: { count: 0, results: [] } },
  'GET /api/admins': { body: { results: [] } },
  'GET /users/groups': { body: { count: 0, results: [] } },
  'GET /users/users': { body: { count: 0, results: [] } },
};

/** Counts the elements matching `selector` that are ever inserted into the document (a remount inserts a new one). */
function countInsertions(selector: string): { count: () => number; stop: () => void } {
  let inserted = 0;
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (!(node instanceof Element)) continue;
        if (node.matches(selector)) inserted += 1;
        inserted += node.querySelectorAll(selector).length;
      }
    }
  });
  observer.observe(document.body, { childList: true, subtree: true });
  return { count: () => inserted, stop: () => observer.disconnect() };
}

/** Holds back the answer to the user fetch until `release` is called. */
function gateUserFetch(): { release: () => void } {
  let release = () => undefined as void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const answer = globalThis.fetch;
  vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
    if (input.startsWith('/api/me')) await gate;
    return answer(input, init);
  });
  return { release: () => release() };
}

/** Lets the observer's microtasks and the router's pending work run. */
const settle = () => act(async () => void (await new Promise((resolve) => setTimeout(resolve, 0))));

async function renderAt(path: string) {
  const router = createConsoleRouter({ history: createMemoryHistory({ initialEntries: [path] }) });
  await act(async () => {
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    await router.load();
  });
  return router;
}

describe('the console shell', () => {
  it('is mounted once across the start-up load and navigations between console pages, keeping focus in it', async () => {
    freshSession(tokenWith({}));
    serveApi(startupAnswers);
    const shells = countInsertions('.console');
    const router = await renderAt('/');
    await screen.findByRole('heading', { name: /Welcome, Cartograph/ });
    expect(getSession().started).toBe(true);
    const shell = document.querySelector('.console');
    const collapse = screen.getByRole('button', { name: 'Collapse menu' });
    collapse.focus();

    await act(() => router.navigate({ to: '/forbidden' } as never));
    await screen.findByRole('heading', { name: 'Forbidden' });
    await act(() => router.navigate({ to: '/settings/user' } as never));
    // The settings layout is the same shell with the settings menu shown beside the page.
    await screen.findByRole('navigation', { name: 'Settings' });
    await settle();

    expect(document.querySelector('.console')).toBe(shell);
    expect(shell?.getAttribute('data-layout')).toBe('settings');
    expect(document.activeElement).toBe(collapse);
    // /login sends a signed-in visitor home: the redirect passes a login-layout route without swapping the shell.
    await act(() => router.navigate({ to: '/login' } as never));
    await screen.findByRole('heading', { name: /Welcome, Cartograph/ });
    await settle();
    expect(router.state.location.pathname).toBe('/');
    expect(document.querySelector('.console')).toBe(shell);
    expect(shell?.getAttribute('data-layout')).toBe('default');
    expect(shells.count()).toBe(1);
    shells.stop();
  });

  it('keeps the shell and the focus in it when the start-up load finishes under an already shown screen', async () => {
    freshSession(tokenWith({}));
    serveApi(startupAnswers);
    // The user fetch waits until the test lets it through, so the screen is on display while the session loads.
    const { release } = gateUserFetch();
    const shells = countInsertions('.console');
    // An unmatched path runs no guards: a signed-in visitor sees the console at once and the start-up load follows.
    const router = await renderAt('/no-such-page');
    await screen.findByRole('heading', { name: 'Page Not Found' });
    expect(getSession().started).toBe(false);
    const shell = document.querySelector('.console');
    const collapse = screen.getByRole('button', { name: 'Collapse menu' });
    collapse.focus();

    await act(async () => release());
    await screen.findByText('Cartograph Administrator', { selector: '.top-bar__user' });
    await settle();

    expect(getSession().started).toBe(true);
    expect(document.querySelector('.console')).toBe(shell);
    expect(document.activeElement).toBe(collapse);
    // Leaving the 404 for a page keeps the same shell too.
    await act(() => router.navigate({ to: '/' } as never));
    await screen.findByRole('heading', { name: /Welcome, Cartograph/ });
    await settle();
    expect(document.querySelector('.console')).toBe(shell);
    expect(shells.count()).toBe(1);
    shells.stop();
  });

  it('shows an unmatched path to a signed-out visitor in the login layout, without the console', async () => {
    freshSession();
    const calls = serveApi({});
    await renderAt('/no-such-page');
    await screen.findByRole('heading', { name: 'Page Not Found' });
    expect(document.querySelector('.login-layout .not-found')).not.toBeNull();
    expect(document.querySelector('.console')).toBeNull();
    expect(calls).toEqual([]);
  });

  it('shows no shell while the guards of a page still load the session, then mounts it once with the page', async () => {
    freshSession(tokenWith({}));
    serveApi(startupAnswers);
    const { release } = gateUserFetch();
    const shells = countInsertions('.console');
    const router = createConsoleRouter({ history: createMemoryHistory({ initialEntries: ['/'] }) });
    render(<RouterProvider router={router} />);
    const loaded = router.load();
    await settle();
    expect(document.querySelector('.console')).toBeNull();
    await act(async () => {
      release();
      await loaded;
    });
    await screen.findByRole('heading', { name: /Welcome, Cartograph/ });
    await settle();
    expect(shells.count()).toBe(1);
    shells.stop();
  });
});
