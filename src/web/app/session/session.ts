import { useSyncExternalStore } from 'react';
import { goToLogin } from '../navigation';
import { clearSavedQueries, decodeToken, isExpired, readToken, writeToken, type DecodedToken } from './tokenStore';

export type CurrentUser = {
  id: number;
  username: string;
  name: string;
  email: string;
  first_name?: string;
  last_name?: string;
  is_ldap?: boolean;
  company_id: number;
  groups?: { id: number; name: string }[];
  permissions: string[];
  otp_enabled: boolean;
  password_expired: boolean;
};
export type Company = { id: number; name: string; domain: string; is_active?: boolean; is_constant?: boolean };
export type AdminCompany = { id: number; name: string; domain: string };
/**
 * An adapter of the catalogue. `can_fetch` is false while Cartograph has no engine for it (absent on custom adapters,
 * which always fetch); `entities` is what it fetches; `verified_by_replay` says a replay fixture (or its engine's tests) verifies it.
 */
export type Adapter = {
  id: number | string | null; name: string; slug: string; categories: string[]; status: number; custom?: boolean;
  can_fetch?: boolean; entities?: string[]; verified_by_replay?: boolean;
  /** `http` or a code engine's name (`csv`, `sql`, ...); absent on the built-in and custom adapters. */
  engine?: string | null;
};
export type Enrichment = { slug: string; name: string };
export type Dashboard = { id: number | string } & Record<string, unknown>;
export type LicenseConfiguration = { modules: string[]; edition?: string; licensee?: string };

export type SessionState = {
  token: string | null;
  decoded: DecodedToken | null;
  user: CurrentUser | null;
  company: Company | null;
  adminCompanies: AdminCompany[];
  adapters: Adapter[];
  enrichments: Enrichment[];
  dashboards: Dashboard[];
  license: LicenseConfiguration | null;
  companyConfiguration: Record<string, unknown> | null;
  loggingIn: boolean;
  fetchingUser: boolean;
  started: boolean;
};

const signedOut = {
  token: null,
  decoded: null,
  user: null,
  company: null,
  adminCompanies: [],
  adapters: [],
  enrichments: [],
  dashboards: [],
  license: null,
  companyConfiguration: null,
  fetchingUser: false,
  started: false,
} satisfies Omit<SessionState, 'loggingIn'>;

function initialState(): SessionState {
  const token = readToken();
  return { ...signedOut, loggingIn: false, token, decoded: decodeToken(token) };
}

let state: SessionState = initialState();
const listeners = new Set<() => void>();

export function getSession(): SessionState {
  return state;
}

export function updateSession(changes: Partial<SessionState>): void {
  state = { ...state, ...changes };
  for (const listener of listeners) listener();
}

/** Re-reads the stored token (start of the app, and tests). */
export function resetSession(): void {
  state = initialState();
  for (const listener of listeners) listener();
}

export function useSession(): SessionState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSession,
  );
}

/** Stores a fresh access token; the start-up load runs again for it. */
export function setToken(token: string): void {
  writeToken(token);
  updateSession({ token, decoded: decodeToken(token), user: null, started: false });
}

/** Authenticated when a token is present (spec §4). */
export const isAuthenticated = (): boolean => Boolean(getSession().token);

/**
 * Logout (spec §4): clears token, user, decoded token, company, admin companies and fetch flags, and the saved query
 * of every `pconfig-` entry; with `redirect`, goes to login with that path as redirect.
 */
export function logout(options: { redirect?: string } = {}): void {
  writeToken(null);
  clearSavedQueries();
  updateSession({ ...signedOut });
  if (options.redirect !== undefined) goToLogin(options.redirect);
}

/** At start an expired token (compared in seconds) logs out. */
export function dropExpiredToken(now = Date.now()): void {
  const { decoded } = getSession();
  if (decoded && isExpired(decoded, now)) logout();
}

/** has-permission (spec §6): the user holds one of the given permissions. */
export function hasPermission(...permissions: string[]): boolean {
  const granted = getSession().user?.permissions ?? [];
  return permissions.some((permission) => granted.includes(permission));
}

/** has-module-permission (spec §6): the license holds one of the given modules. */
export function hasModulePermission(...modules: string[]): boolean {
  const licensed = getSession().license?.modules ?? [];
  return modules.some((module) => licensed.includes(module));
}
