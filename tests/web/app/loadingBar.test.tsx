import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { act, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoadingBar, loadingBarTiming } from '../../../src/web/app/shell/LoadingBar';

afterEach(() => vi.useRealTimers());

async function routerWithSlowRoute() {
  let finish: (outcome: 'ok' | 'fail') => void = () => undefined;
  const root = createRootRoute({
    component: () => (
      <>
        <LoadingBar />
        <Outlet />
      </>
    ),
  });
  const home = createRoute({ getParentRoute: () => root, path: '/', component: () => <p>home</p> });
  const slow = createRoute({
    getParentRoute: () => root,
    path: '/slow',
    loader: () => new Promise<void>((resolve, reject) => (finish = (outcome) => (outcome === 'ok' ? resolve() : reject(new Error('failed'))))),
    component: () => <p>slow</p>,
    errorComponent: () => <p>error</p>,
  });
  const router = createRouter({ routeTree: root.addChildren([home, slow]), history: createMemoryHistory({ initialEntries: ['/'] }), defaultPendingMs: 60_000 });
  await act(async () => {
    render(<RouterProvider router={router} />);
    await router.load();
  });
  return { router, finish: (outcome: 'ok' | 'fail') => finish(outcome) };
}

const phase = () => document.querySelector('.loading-bar')?.getAttribute('data-phase');
const hasErrorColour = () => document.querySelector('.loading-bar')?.classList.contains('loading-bar--error');

describe('the loading bar', () => {
  it('uses the timings of spec §9', () => {
    expect(loadingBarTiming).toEqual({ throttleMs: 200, durationMs: 2000, hideDelayMs: 500, resetDelayMs: 400 });
  });

  it('appears only after the throttle, finishes when the navigation resolves, then hides and resets', async () => {
    const { router, finish } = await routerWithSlowRoute();
    vi.useFakeTimers();
    let navigation: Promise<void> = Promise.resolve();
    act(() => void (navigation = router.navigate({ to: '/slow' })));
    await act(async () => void vi.advanceTimersByTime(loadingBarTiming.throttleMs - 1));
    expect(phase()).toBe('idle');
    await act(async () => void vi.advanceTimersByTime(1));
    expect(phase()).toBe('loading');
    await act(async () => {
      finish('ok');
      await navigation;
    });
    expect(phase()).toBe('finishing');
    await act(async () => void vi.advanceTimersByTime(loadingBarTiming.hideDelayMs));
    expect(phase()).toBe('hiding');
    await act(async () => void vi.advanceTimersByTime(loadingBarTiming.resetDelayMs));
    expect(phase()).toBe('idle');
  });

  it('takes the error colour when the navigation fails', async () => {
    const { router, finish } = await routerWithSlowRoute();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.useFakeTimers();
    let navigation: Promise<void> = Promise.resolve();
    act(() => void (navigation = router.navigate({ to: '/slow' })));
    await act(async () => void vi.advanceTimersByTime(loadingBarTiming.throttleMs));
    await act(async () => {
      finish('fail');
      await navigation;
    });
    expect(hasErrorColour()).toBe(true);
    vi.restoreAllMocks();
  });
});
