import { createHashHistory, createRootRoute, createRoute, createRouter, Outlet, useRouterState, type AnyRoute, type RouterHistory } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { NotFound } from '../pages/system/NotFound';
import { ErrorPage } from '../pages/system/ErrorPage';
import { isChunkLoadError, reloadAfterChunkError } from './chunkReload';
import { middlewareFor, runGuards } from './guards';
import { registerNavigator } from './navigation';
import { NotificationArea } from './notifications/NotificationArea';
import { OverlayListHost } from './overlay/OverlayListHost';
import { loadPage, loadedPage, pageSourceFor } from './pageModules';
import { isNotFoundError } from './routeErrors';
import { assertRouteValid } from './routeValidity';
import { routeTable, toRouterPath, type LayoutName, type RouteEntry } from './routeTable';
import { Layout } from './shell/Layouts';
import { LoadingBar } from './shell/LoadingBar';
import { getSession, useSession } from './session/session';
import { loadStartup } from './session/startup';

function Root() {
  return (
    <>
      <LoadingBar />
      <NotificationArea />
      <OverlayListHost />
      <Outlet />
    </>
  );
}

/** The non-fatal 404 of an unmatched path: inside the console when signed in, on its own otherwise. */
function UnmatchedPath() {
  const { token } = useSession();
  useEffect(() => {
    // Unmatched paths run no guards; a signed-in visitor still gets the console around the screen.
    if (token && !getSession().started) void loadStartup();
  }, [token]);
  return token ? (
    <Layout name="default">
      <NotFound />
    </Layout>
  ) : (
    <Layout name="login">
      <NotFound />
    </Layout>
  );
}

/** Fatal errors: status 404 shows the Not Found screen; a chunk that failed to load reloads the page once. */
function RouteFailure({ error, layout }: { error: unknown; layout: LayoutName }) {
  const path = useRouterState({ select: (state) => state.location.pathname });
  const chunkFailure = isChunkLoadError(error);
  // null: not decided yet; true: the page is reloading; false: reloaded recently already, so show the error.
  const [reloading, setReloading] = useState<boolean | null>(chunkFailure ? null : false);
  useEffect(() => {
    if (chunkFailure) setReloading(reloadAfterChunkError(path));
  }, [chunkFailure, path]);
  if (reloading !== false) return null;
  const screen = isNotFoundError(error) ? <NotFound /> : <ErrorPage error={error} />;
  return <Layout name={layout}>{screen}</Layout>;
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
    loader: async () => {
      if (source) await loadPage(source);
    },
    component: function RouteView() {
      // A route whose page is not built yet (no module, or no such export) deliberately shows the Not Found screen.
      const Page = source ? loadedPage(source) : null;
      return <Layout name={entry.layout}>{Page ? <Page route={entry} schema={entry.schema} /> : <NotFound />}</Layout>;
    },
    errorComponent: ({ error }: { error: unknown }) => <RouteFailure error={error} layout={entry.layout} />,
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
  });
  function leafEntry(): RouteEntry | undefined {
    const leaf = router.state.matches.at(-1);
    const route = leaf ? (router.routesById as Record<string, AnyRoute | undefined>)[leaf.routeId] : undefined;
    return (route?.options.staticData as { entry?: RouteEntry } | undefined)?.entry;
  }
  registerNavigator((to, search) => void router.navigate((search ? { to, search } : { to }) as never));
  return router;
}
