import { vi } from 'vitest';
import { registerNavigator } from '../../../src/web/app/navigation';
import { resetSession } from '../../../src/web/app/session/session';

/** An access token shaped like the server's (header.claims.signature); the console only decodes it. */
export function tokenWith(claims: Record<string, unknown>): string {
  const encode = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ user_id: 1, company_id: 1, username: 'admin', adapters: ['*'], exp: Math.floor(Date.now() / 1000) + 3600, ...claims })}.signature`;
}

export type Answer = { status?: number; body?: unknown };
export type RecordedCall = { method: string; url: string; body: unknown; authorization: string | null };

/**
 * Replaces the network with a table of answers keyed by "METHOD /path" (query ignored); a list answers in turn
 * (its last entry repeats). Unlisted calls answer 404 like the server does for endpoints that do not exist.
 */
export function serveApi(table: Record<string, Answer | Answer[]>): RecordedCall[] {
  const calls: RecordedCall[] = [];
  const served: Record<string, number> = {};
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const path = input.split('?')[0];
      const headers = (init.headers ?? {}) as Record<string, string>;
      calls.push({ method, url: input, body: init.body ? JSON.parse(String(init.body)) : undefined, authorization: headers.authorization ?? null });
      const key = `${method} ${path}`;
      const entry = table[key];
      const list = entry === undefined ? [{ status: 404, body: { detail: 'Not found.' } }] : Array.isArray(entry) ? entry : [entry];
      const index = Math.min(served[key] ?? 0, list.length - 1);
      served[key] = (served[key] ?? 0) + 1;
      const answer = list[index]!;
      const status = answer.status ?? 200;
      return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), { status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return calls;
}

/** Starts each test signed out (or signed in with `token`), with a navigator that records where the app went. */
export function freshSession(token?: string): { navigations: { to: string; search?: Record<string, string> }[] } {
  localStorage.clear();
  sessionStorage.clear();
  if (token) localStorage.setItem('cartograph.token', token);
  resetSession();
  const navigations: { to: string; search?: Record<string, string> }[] = [];
  registerNavigator((to, search) => navigations.push({ to, search }));
  window.location.hash = '#/';
  return { navigations };
}

export const adminUser = {
  id: 1,
  username: 'admin',
  name: 'Cartograph Administrator',
  first_name: 'Cartograph',
  email: 'admin@example.com',
  company_id: 1,
  permissions: ['users.view_user', 'users.add_user', 'auth.view_group', 'avm.view_vulnerabilityenrichment'],
  otp_enabled: false,
  password_expired: false,
};
