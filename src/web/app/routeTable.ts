import routeData from '../../../schemas/routes.json';

export type LayoutName = 'default' | 'login' | 'settings';
export type ParamCheck = 'integer' | 'slug';

/** One row of schemas/routes.json. */
export type RouteEntry = {
  path: string;
  name: string;
  layout: LayoutName;
  public?: boolean;
  permission: string | null;
  page: string;
  schema?: string;
  scrollToTop?: boolean;
  validate?: Record<string, ParamCheck>;
  middleware?: string[];
};

/** Every console route, as data. Paths keep the spec's `{param}` form. */
export const routeTable = routeData.routes as RouteEntry[];

/** The spec's `{param}` becomes the router's `$param`. Before: `/settings/user/{id}/edit`; after: `/settings/user/$id/edit`. */
export function toRouterPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, '$$$1');
}

/** The route's permission check for a signed-in user: public, none needed, or the permission held (spec §6). */
export function mayOpen(route: RouteEntry, permissions: readonly string[]): boolean {
  return route.public === true || route.permission === null || permissions.includes(route.permission);
}

export function routeByPath(path: string): RouteEntry | undefined {
  return routeTable.find((entry) => entry.path === path);
}
