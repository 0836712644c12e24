import { currentRoutePath } from '../../app/http/fieldErrors';

/**
 * The parameters of a route path in the current console path (hash routing), so pages work with or without the
 * router around them. Before: `/settings/user/{id}/edit` on `#/settings/user/7/edit`; after: `{ id: '7' }`.
 */
export function routeParams(routePath: string, path: string = currentRoutePath()): Record<string, string> {
  const names: string[] = [];
  const pattern = routePath.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}|\{(\w+)\}/g, (_whole, escaped: string, plain: string) => {
    names.push(escaped ?? plain);
    return '([^/]+)';
  });
  const match = new RegExp(`^${pattern}$`).exec(path);
  if (!match) return {};
  return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1] ?? '')]));
}
