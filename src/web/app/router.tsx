import { clearBreadcrumb } from './shell/breadcrumb';
import { createHashHistory, createRootRoute, createRoute, createRouter, Outlet, useRouterState, type AnyRoute, type RouterHistory } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { NotFound } from '../pages/system/NotFound';
import { ErrorPage } from '../pages/system/ErrorPage';
import { isBot } from './bots';
import { isChunkLoadError, reloadAfterChunkError } from './chunkReload';
import { middlewareFor, runGuards } from './guards';
import { registerNavigator } from './navigation';
import { NotificationArea } from './notifications/NotificationArea';
import { dismissErrors } from './notifications/notifications';
import { OverlayListHost } from './overlay/OverlayListHost';
import { loadPage, loadedPage, pageSourceFor } from './pageModules';
import { limitPreload, prefetchAllowed } from './preload';
import { isNotFoundError } from './routeErrors';
import { assertRouteValid } from './routeValidity';
import { routeTable, toRouterPath, type LayoutName, type RouteEntry } from './routeTable';
import { Layout } from './shell/Layouts';
import { LoadingBar } from './shell/LoadingBar';
import { getSession, useSession } from './session/session';
import { loadStartup } from './session/startup';

const entryOf = (staticData: unknown): RouteEntry | undefined => (staticData as { entry?: RouteEntry } | undefined)?.entry;
type Decided = LayoutName | 'unmatched' | 'pending';

/**
 * The layout of the screen on display. Until the first page's guards have passed there is none (nothing is shown yet);
 * while a navigation is pending the previous one stays, so the shell is not swapped out and back during a redirect.
 */
function useLayoutName(): LayoutName | undefined {
  const { token } = useSession();
  const decided = useRouterState({
    select: (state): Decided => {
      const leaf = state.matches.at(-1);
      if (!leaf || (leaf.status !== 'success' && leaf.status !== 'error' && leaf.status !== 'notFound')) return 'pending';
      return entryOf(leaf.staticData)?.layout ?? 'unmatched';
    },
  });
  const last = useRef<LayoutName | undefined>(undefined);
  // An unmatched path has no route entry: the console when signed in, the login layout otherwise.
  if (decided !== 'pending') last.current = decided === 'unmatched' ? (token ? 'default' : 'login') : decided;
  return last.current;
}

/**
 * The layout wraps the router's outlet here, once, instead of inside each page's component: a page's component is its
 * own element type, so a layout inside it rebuilt the whole shell (navigation, top bar, anything focused or typed in
 * it) on every navigation. Here the shell stays mounted while the pages change; only a switch between the login layout
 * and the console (default and settings are one shell) builds a new one.
 */
function Root() {
  const layout = useLayoutName();
  return (
    <>
      <LoadingBar />
      <NotificationArea />
      <OverlayListHost />
      {layout ? (
        <Layout name={layout}>
          <Outlet />
        </Layout>
      ) : (
        <Outlet />
      )}
    </>
  );
}

/** The non-fatal 404 of an unmatched path: in the console when signed in, in the login layout otherwise (see Root). */
function UnmatchedPath() {
  const { token } = useSession();
  useEffect(() => {
    // Unmatched paths run no guards; a signed-in visitor still gets the console around the screen.
    if (token && !getSession().started) void loadStartup();
  }, [token]);
  return <NotFound />;
}

/**
 * Fatal errors: status 404 shows the Not Found screen; a chunk that failed to load reloads the page once.
 * Rendered in the failing route's place, so inside the layout that is already on screen.
 */
function RouteFailure({ error }: { error: unknown }) {
  const path = useRouterState({ select: (state) => state.location.pathname });
  const chunkFailure = isChunkLoadError(error);
  // null: not decided yet; true: the page is reloading; false: reloaded recently already, so show the error.
  const [reloading, setReloading] = useState<boolean | null>(chunkFailure ? null : false);
  useEffect(() => {
    if (chunkFailure) setReloading(reloadAfterChunkError(path));
  }, [chunkFailure, path]);
  const notFound = isNotFoundError(error);
  const bot = !notFound && isBot();
  useEffect(() => {
    if (bot) console.error('Error met by a search-engine or preview bot', error);
  }, [bot, error]);
  if (reloading !== false || bot) return null;
  return notFound ? <NotFound /> : <ErrorPage error={error} />;
}

function routeFor(parent: AnyRoute, entry: RouteEntry): AnyRoute {
  middlewareFor(entry); // An unknown middleware name fails when the router is built, not on first visit.
  const source = pageSourceFor(entry);
  return createRoute({
    getParentRoute: () => parent,
    path: toRouterPath(entry.path),
    staticData: { entry },
    beforeLoad: async ({ location, params }: { location: { href: string }; params: unknown }) => {
      await runGuards(entry, location.href);
      assertRouteValid(entry, params as Record<string, string>, location.href);
    },
    // The page's chunk is fetched after the guards passed, so a visitor who is sent away never downloads it.
    loader: async ({ preload }: { preload: boolean }) => {
      if (source) await (preload ? limitPreload(() => loadPage(source)) : loadPage(source));
    },
    component: function RouteView() {
      // A route whose page is not built yet (no module, or no such export) deliberately shows the Not Found screen.
      const Page = source ? loadedPage(source) : null;
      return Page ? <Page route={entry} schema={entry.schema} /> : <NotFound />;
    },
    errorComponent: ({ error }: { error: unknown }) => <RouteFailure error={error} />,
  } as never) as unknown as AnyRoute;
}

/** The route tree, generated at run time from schemas/routes.json. */
export function buildRouteTree(entries: RouteEntry[] = routeTable) {
  const root = createRootRoute({ component: Root, notFoundComponent: UnmatchedPath });
  return root.addChildren(entries.map((entry) => routeFor(root, entry)));
}

/** The console's router: hash history, routes from data, scroll to top after navigation unless the route says not. */
export function createConsoleRouter(options: { history?: RouterHistory; entries?: RouteEntry[] } = {}) {
  const router = createRouter({
    routeTree: buildRouteTree(options.entries),
    history: options.history ?? createHashHistory(),
    // Called after each navigation renders: the router scrolls to the top (or back to where a history step was)
    // unless the route's data says scrollToTop: false.
    scrollRestoration: () => leafEntry()?.scrollToTop !== false,
    defaultPendingMinMs: 0,
    // Hovered or focused links fetch their page ahead, except on slow connections or with data-saver.
    defaultPreload: prefetchAllowed() ? 'intent' : false,
  });
  function leafEntry(): RouteEntry | undefined {
    const leaf = router.state.matches.at(-1);
    const route = leaf ? (router.routesById as Record<string, AnyRoute | undefined>)[leaf.routeId] : undefined;
    return entryOf(route?.options.staticData);
  }
  registerNavigator((to, search) => void router.navigate((search ? { to, search } : { to }) as never));
  // An error of the page left behind no longer applies to the page opened.
  router.subscribe('onBeforeNavigate', (event) => {
    if (!event.pathChanged) return;
    dismissErrors();
    // The trail of the page left behind never names the page opened (a page that sets none shows its title).
    clearBreadcrumb();
  });
  return router;
}
