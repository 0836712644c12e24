import { mayOpen, routeTable, type RouteEntry } from '../../app/routeTable';

/** Where the pages of one entity are, for the links and buttons of its list and detail (null: none, or not allowed). */
export type EntityLinks = {
  list: string | null;
  create: string | null;
  edit: ((id: string | number) => string) | null;
  detail: ((id: string | number) => string) | null;
};

const withId = (path: string) => (id: string | number) => path.replace('{id}', encodeURIComponent(String(id)));

/**
 * The console routes of a schema that the user may open, read from schemas/routes.json: the generic list, the create
 * form (`…/create`), the edit form (`…/{id}/edit`) and the detail page (`generic:detail` with `{id}`). A form is
 * known by its path, so a page of its own that wraps the generic form (the user edit with its second factor) counts.
 */
export function entityLinks(schemaId: string, permissions: readonly string[], routes: readonly RouteEntry[] = routeTable): EntityLinks {
  const mine = routes.filter((route) => route.schema === schemaId && mayOpen(route, permissions));
  const list = mine.find((route) => route.page === 'generic:list');
  const create = mine.find((route) => route.path.endsWith('/create'));
  const edit = mine.find((route) => route.path.endsWith('/{id}/edit'));
  const detail = mine.find((route) => route.page === 'generic:detail' && route.path.includes('{id}'));
  return {
    list: list?.path ?? null,
    create: create?.path ?? null,
    edit: edit ? withId(edit.path) : null,
    detail: detail ? withId(detail.path) : null,
  };
}

/** A console path as a link target (hash routing). */
export const hrefOf = (path: string): string => `#${path}`;
