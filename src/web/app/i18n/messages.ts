import { messageCacheMs, type LocaleInfo } from './locales';

export type Messages = Record<string, string>;
type CachedMessages = { at: number; build: string; messages: Messages };

let current: Messages = {};
const cachePrefix = 'cartograph.messages.';

/**
 * The text of a message key, with `{name}` placeholders filled; a key missing from the file falls back to the given
 * text, else to the key itself (so a page not moved to message files yet still reads). Before: `t('login.title')`;
 * after: "Sign in".
 */
export function t(key: string, values: Record<string, string | number> = {}, fallback?: string): string {
  const text = current[key] ?? fallback ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** Installs a message file (the console does it once before mounting; tests do it from the file on disk). */
export function installMessages(messages: Messages): void {
  current = messages;
}

/** The build the messages belong to: a new deploy may add keys, so the cache never outlives its build. */
const buildId = (): string => (typeof __CARTOGRAPH_BUILD_ID__ === 'string' ? __CARTOGRAPH_BUILD_ID__ : 'dev');

function readCache(locale: LocaleInfo): CachedMessages | null {
  try {
    return JSON.parse(localStorage.getItem(cachePrefix + locale.code) ?? 'null') as CachedMessages | null;
  } catch {
    return null;
  }
}

/**
 * Loads a locale's message file, lazily (fetched at start, not bundled) and cached for 24 hours per build. When the
 * file cannot be fetched an older cached copy is used; with none, keys show and the failure is logged.
 */
export async function loadMessages(locale: LocaleInfo, now = Date.now()): Promise<Messages> {
  const cached = readCache(locale);
  if (cached && cached.build === buildId() && now - cached.at < messageCacheMs) {
    installMessages(cached.messages);
    return cached.messages;
  }
  try {
    const response = await fetch(`./locales/${locale.file}`, { cache: 'no-cache' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const messages = (await response.json()) as Messages;
    localStorage.setItem(cachePrefix + locale.code, JSON.stringify({ at: now, build: buildId(), messages } satisfies CachedMessages));
    installMessages(messages);
    return messages;
  } catch (error) {
    console.error(`The ${locale.code} message file could not be loaded`, error);
    installMessages(cached?.messages ?? {});
    return current;
  }
}
