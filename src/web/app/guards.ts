import { redirect } from '@tanstack/react-router';
import { mayOpen, type RouteEntry } from './routeTable';
import { getSession, isAuthenticated } from './session/session';
import { loadStartup } from './session/startup';

/** What a guard sees: the route and the full path being opened (path, query and hash). */
export type GuardContext = { route: RouteEntry; fullPath: string };
export type Guard = (context: GuardContext) => void | Promise<void>;

const toLogin = (fullPath: string) => redirect({ to: '/login', search: { redirect: fullPath } } as never);

/** The route middleware of spec §2 and §6, by name; routes.json may name them per route. */
export const guards: Record<string, Guard> = {
  // An authenticated visitor opening /login goes to /.
  guest: () => {
    if (isAuthenticated()) throw redirect({ to: '/' } as never);
  },
  // An unauthenticated visitor goes to login with the full original path as redirect.
  auth: ({ fullPath }) => {
    if (!isAuthenticated()) throw toLogin(fullPath);
  },
  // The start-up load (user, company, adapters, ...); a failed user fetch logs out and so ends at login.
  startup: async ({ fullPath }) => {
    if (!getSession().started) await loadStartup();
    if (!getSession().user) throw toLogin(fullPath);
  },
  // A user whose password expired must set a new one before anything else.
  password: ({ route, fullPath }) => {
    if (getSession().user?.password_expired && route.path !== '/password-expired') {
      throw redirect({ to: '/password-expired', search: { redirect: fullPath } } as never);
    }
  },
  // A signed-in user without the route's permission goes to /forbidden.
  permission: ({ route }) => {
    if (!mayOpen(route, getSession().user?.permissions ?? [])) throw redirect({ to: '/forbidden' } as never);
  },
};

// Every route runs these unless routes.json names its own list (/login: guest; /sso and /locked: none).
export const defaultMiddleware = ['auth', 'startup', 'password', 'permission'] as const;

/** The guards of a route, in order; an unknown middleware name throws (spec §2). */
export function middlewareFor(route: RouteEntry): Guard[] {
  return (route.middleware ?? defaultMiddleware).map((name) => {
    const guard = Object.hasOwn(guards, name) ? guards[name] : undefined;
    if (!guard) throw new Error(`Unknown route middleware "${name}" on ${route.path}`);
    return guard;
  });
}

/** Runs a route's guards one after the other; the first redirect wins. */
export async function runGuards(route: RouteEntry, fullPath: string): Promise<void> {
  for (const guard of middlewareFor(route)) await guard({ route, fullPath });
}
