// The access token lives in local storage (spec §9) under one fixed key; the rest of the session derives from it.
export const tokenKey = 'cartograph.token';

/** The claims the console reads from the access token (the server verifies it; the console only decodes). */
export type DecodedToken = { exp: number; iat?: number; sub?: string; user_id: number; company_id: number; username: string; adapters: string[]; pwx?: boolean };

export function readToken(): string | null {
  return localStorage.getItem(tokenKey);
}

export function writeToken(token: string | null): void {
  if (token) localStorage.setItem(tokenKey, token);
  else localStorage.removeItem(tokenKey);
}

/** The claims of a JWT, read without verifying; null when it is not a JWT. */
export function decodeToken(token: string | null): DecodedToken | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
    const claims = JSON.parse(new TextDecoder().decode(bytes)) as DecodedToken;
    return typeof claims === 'object' && claims !== null ? claims : null;
  } catch {
    return null;
  }
}

/** Expiry is compared in seconds, as the token states it (spec §4). */
export function isExpired(token: DecodedToken, nowMilliseconds = Date.now()): boolean {
  return typeof token.exp === 'number' && token.exp <= Math.floor(nowMilliseconds / 1000);
}

// The key of the saved query inside a `pconfig-` entry (the page configuration of an inventory list).
export const savedQueryField = 'query';

/** Logout clears the saved query in every `pconfig-` entry and keeps the rest of each entry (spec §4). */
export function clearSavedQueries(storage: Storage = localStorage): void {
  const keys = Array.from({ length: storage.length }, (_, index) => storage.key(index)).filter((key): key is string => Boolean(key?.startsWith('pconfig-')));
  for (const key of keys) {
    let entry: unknown;
    try {
      entry = JSON.parse(storage.getItem(key) ?? 'null');
    } catch {
      continue; // Not ours to repair: an unreadable entry is left as it is.
    }
    if (!entry || typeof entry !== 'object' || !(savedQueryField in entry)) continue;
    const { [savedQueryField]: _cleared, ...rest } = entry as Record<string, unknown>;
    storage.setItem(key, JSON.stringify(rest));
  }
}
