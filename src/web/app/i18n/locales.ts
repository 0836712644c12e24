// Spec §1, §9: English only (en-US, left to right); the URL prefix strategy is prefix_except_default, so the default
// locale has no prefix, and with en-US the only locale no route ever carries one. The chosen locale is remembered in
// the i18n_redirected cookie for 365 days; message files are cached for 24 hours.
export type LocaleCode = 'en-US';
/** A locale's messages: `file` for the console, fetched at start; `adapterFile` for the adapters' connection forms. */
export type LocaleInfo = { code: LocaleCode; dir: 'ltr' | 'rtl'; file: string; adapterFile: string };

export const locales: readonly LocaleInfo[] = [{ code: 'en-US', dir: 'ltr', file: 'en-US.json', adapterFile: 'en-US.adapters.json' }];
export const defaultLocale: LocaleCode = 'en-US';
export const localeCookie = 'i18n_redirected';
export const localeCookieDays = 365;
export const messageCacheMs = 24 * 60 * 60 * 1000;
export const urlPrefixStrategy = 'prefix_except_default';

/** The supported locale a tag names (`en`, `en-us`, `en-US` → en-US), or undefined. */
export function supportedLocale(tag: string | undefined | null): LocaleInfo | undefined {
  if (!tag) return undefined;
  const wanted = tag.toLowerCase();
  return locales.find((locale) => locale.code.toLowerCase() === wanted) ?? locales.find((locale) => locale.code.toLowerCase().split('-')[0] === wanted.split('-')[0]);
}

/** The URL prefix of a locale under prefix_except_default: none for the default locale. */
export const localePrefix = (code: LocaleCode): string => (code === defaultLocale ? '' : `/${code}`);

function readCookie(name: string): string | undefined {
  return document.cookie
    .split(';')
    .map((part) => part.trim().split('='))
    .find(([key]) => key === name)?.[1];
}

/**
 * The locale of this visit: the cookie's when it names a supported one, else the browser's first supported language,
 * else en-US. The cookie is (re)written so the choice holds for 365 days.
 */
export function chooseLocale(): LocaleInfo {
  const fromCookie = supportedLocale(decodeURIComponent(readCookie(localeCookie) ?? ''));
  const chosen = fromCookie ?? navigator.languages.map((tag) => supportedLocale(tag)).find(Boolean) ?? supportedLocale(defaultLocale)!;
  document.cookie = `${localeCookie}=${encodeURIComponent(chosen.code)}; max-age=${localeCookieDays * 86_400}; path=/; SameSite=Lax`;
  return chosen;
}
