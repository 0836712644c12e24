import type { ParamCheck, RouteEntry } from './routeTable';
import { pageNotFound } from './routeErrors';

const checks: Record<ParamCheck, (value: string) => boolean> = {
  // Row ids are positive 32-bit integers on the server (cartograph:api/id-params).
  integer: (value) => /^[1-9]\d{0,9}$/.test(value) && Number(value) <= 2_147_483_647,
  slug: (value) => /^[a-z0-9][a-z0-9-]*$/.test(value),
};

/** A route's validity check (spec §2): any failing parameter raises the fatal `Page Not Found: {path}` (404). */
export function assertRouteValid(route: RouteEntry, params: Record<string, string>, fullPath: string): void {
  for (const [param, check] of Object.entries(route.validate ?? {})) {
    const test = checks[check];
    if (!test) throw new Error(`Unknown route validity check: ${check}`);
    if (!test(String(params[param] ?? ''))) throw pageNotFound(fullPath);
  }
}
