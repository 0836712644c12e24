import { defaultLocale, messageCacheMs, supportedLocale, type LocaleInfo } from './locales';

export type Messages = Record<string, string>;
type CachedMessages = { at: number; build: string; messages: Messages };
/** A locale's messages come in two files: the console's (fetched at start) and the adapters' connection forms'. */
type MessagePart = 'console' | 'adapters';

const installed: Record<MessagePart, Messages> = { console: {}, adapters: {} };
let chosenLocale: LocaleInfo | undefined;
let adapterMessagesLoading: Promise<Messages> | undefined;
const cachePrefix = 'cartograph.messages.';

/**
 * The text of a message key, with `{name}` placeholders filled; a key missing from the file falls back to the given
 * text, else to the key itself (so a page not moved to message files yet still reads). Before: `t('login.title')`;
 * after: "Sign in".
 */
export function t(key: string, values: Record<string, string | number> = {}, fallback?: string): string {
  const text = installed.console[key] ?? installed.adapters[key] ?? fallback ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** The console's messages whose keys start with `prefix`, as [rest of the key, text] (the activity actions a filter offers). */
export function messagesUnder(prefix: string): [string, string][] {
  return Object.entries(installed.console).filter(([key]) => key.startsWith(prefix)).map(([key, text]) => [key.slice(prefix.length), text]);
}

/** Installs a message file (the console does it once before mounting; tests do it from the file on disk). */
export function installMessages(messages: Messages, part: MessagePart = 'console'): void {
  installed[part] = messages;
}

/** The build the messages belong to: a new deploy may add keys, so the cache never outlives its build. */
const buildId = (): string => (typeof __CARTOGRAPH_BUILD_ID__ === 'string' ? __CARTOGRAPH_BUILD_ID__ : 'dev');
const cacheKey = (locale: LocaleInfo, part: MessagePart) => cachePrefix + locale.code + (part === 'console' ? '' : `.${part}`);

function readCache(locale: LocaleInfo, part: MessagePart): CachedMessages | null {
  try {
    return JSON.parse(localStorage.getItem(cacheKey(locale, part)) ?? 'null') as CachedMessages | null;
  } catch {
    return null;
  }
}

function writeCache(locale: LocaleInfo, part: MessagePart, entry: CachedMessages): void {
  try {
    localStorage.setItem(cacheKey(locale, part), JSON.stringify(entry));
  } catch (error) {
    // A full storage quota costs the next start a fetch, not this start its messages.
    console.warn(`The ${locale.code} messages could not be cached`, error);
  }
}

/**
 * Loads one message file of a locale, lazily (fetched, not bundled) and cached for 24 hours per build. When the file
 * cannot be fetched an older cached copy is used; with none, keys show and the failure is logged.
 */
async function loadPart(locale: LocaleInfo, part: MessagePart, now: number): Promise<Messages> {
  const cached = readCache(locale, part);
  if (cached && cached.build === buildId() && now - cached.at < messageCacheMs) {
    installMessages(cached.messages, part);
    return cached.messages;
  }
  const file = part === 'console' ? locale.file : locale.adapterFile;
  try {
    const response = await fetch(`./locales/${file}`, { cache: 'no-cache' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const messages = (await response.json()) as Messages;
    writeCache(locale, part, { at: now, build: buildId(), messages });
    installMessages(messages, part);
    return messages;
  } catch (error) {
    console.error(`The ${locale.code} message file ${file} could not be loaded`, error);
    installMessages(cached?.messages ?? {}, part);
    return installed[part];
  }
}

/** Loads the console's message file of a locale (before the first render). */
export async function loadMessages(locale: LocaleInfo, now = Date.now()): Promise<Messages> {
  chosenLocale = locale;
  adapterMessagesLoading = undefined;
  return loadPart(locale, 'console', now);
}

/**
 * Loads the messages of the adapters' connection forms (thousands of texts no other page needs), once, the first time
 * such a form opens; in the locale of the console's messages.
 */
export function loadAdapterMessages(now = Date.now()): Promise<Messages> {
  adapterMessagesLoading ??= loadPart(chosenLocale ?? supportedLocale(defaultLocale)!, 'adapters', now);
  return adapterMessagesLoading;
}
