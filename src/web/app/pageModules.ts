import type { ComponentType } from 'react';
import type { RouteEntry } from './routeTable';

export type PageProps = { route: RouteEntry; schema?: string };
export type PageComponent = ComponentType<PageProps>;
type ModuleLoader = () => Promise<Record<string, unknown>>;
type LoaderMap = Partial<Record<string, ModuleLoader>>;

// Lazy globs: every page is its own chunk, fetched when its route opens, so the login route stays small.
// The renderers glob is empty until src/web/renderers/index.ts exists; generic routes then resolve to nothing.
const pageLoaders: LoaderMap = import.meta.glob<Record<string, unknown>>(['../pages/**/*.tsx', '!../pages/**/*.test.tsx', '!../pages/**/*.stories.tsx', '!../pages/system/NotFound.tsx', '!../pages/system/ErrorPage.tsx']);
const rendererLoaders: LoaderMap = import.meta.glob<Record<string, unknown>>('../renderers/index.ts');

const genericExports = { 'generic:list': 'GenericListPage', 'generic:form': 'GenericFormPage', 'generic:detail': 'GenericDetailPage' } as const;

/** How a route's page is loaded: a module and the named export it must provide. */
export type PageSource = { load: ModuleLoader; exportName: string };

/**
 * The source of a route's page, or null when that page is not built yet (the route then shows the Not Found screen).
 * `auth/Login` is `pages/auth/Login.tsx` (or `pages/auth/Login/Login.tsx`) exporting `Login`.
 */
export function pageSourceFor(route: RouteEntry, pages = pageLoaders, renderers = rendererLoaders): PageSource | null {
  if (route.page in genericExports) {
    const load = renderers['../renderers/index.ts'];
    return load && route.schema ? { load, exportName: genericExports[route.page as keyof typeof genericExports] } : null;
  }
  const exportName = route.page.split('/').at(-1) ?? route.page;
  const load = pages[`../pages/${route.page}.tsx`] ?? pages[`../pages/${route.page}/${exportName}.tsx`];
  return load ? { load, exportName } : null;
}

export const isPageBuilt = (route: RouteEntry): boolean => pageSourceFor(route) !== null;

const loadedModules = new WeakMap<ModuleLoader, Record<string, unknown>>();

/** Loads a page module once; null when the module lacks its named export (treated as not built). */
export async function loadPage(source: PageSource): Promise<PageComponent | null> {
  let module = loadedModules.get(source.load);
  if (!module) {
    module = await source.load();
    loadedModules.set(source.load, module);
  }
  return (module[source.exportName] as PageComponent | undefined) ?? null;
}

/** The already loaded page of a source (the route's loader loaded it before the component renders). */
export function loadedPage(source: PageSource): PageComponent | null {
  return (loadedModules.get(source.load)?.[source.exportName] as PageComponent | undefined) ?? null;
}
