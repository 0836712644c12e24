import { afterEach, describe, expect, it, vi } from 'vitest';
import { isBot } from '../../../src/web/app/bots';
import { chooseLocale, localeCookie, localePrefix, supportedLocale } from '../../../src/web/app/i18n/locales';
import { installMessages, loadMessages, t } from '../../../src/web/app/i18n/messages';
import { isPaletteShortcut } from '../../../src/web/app/palette/CommandPaletteButton';
import { checkForNewBuild } from '../../../src/web/app/pwa/buildCheck';
import { limitPreload, maxConcurrentPreloads, prefetchAllowed } from '../../../src/web/app/preload';
import messages from '../../../src/web/public/locales/en-US.json';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
  installMessages(messages);
});

describe('locales and message files', () => {
  it('fills placeholders and falls back to the given text, then to the key', () => {
    installMessages({ greeting: 'Theme: {theme}' });
    expect(t('greeting', { theme: 'Dark' })).toBe('Theme: Dark');
    expect(t('missing.key', {}, 'Fallback')).toBe('Fallback');
    expect(t('missing.key')).toBe('missing.key');
  });

  it('fetches a message file once and serves it from the cache for 24 hours, then fetches it again', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ hello: 'Hello' }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const locale = supportedLocale('en-US')!;
    const start = 1_000_000;
    await loadMessages(locale, start);
    await loadMessages(locale, start + 23 * 3_600_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(t('hello')).toBe('Hello');
    await loadMessages(locale, start + 25 * 3_600_000);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('keeps the last cached messages and logs when the file cannot be fetched', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{"a":"A"}', { status: 200 })));
    await loadMessages(supportedLocale('en-US')!, 0);
    vi.stubGlobal('fetch', vi.fn(async () => new Response('gone', { status: 404 })));
    await loadMessages(supportedLocale('en-US')!, 48 * 3_600_000);
    expect(t('a')).toBe('A');
    expect(error).toHaveBeenCalled();
  });

  it('remembers en-US in the i18n_redirected cookie; the default locale has no URL prefix', () => {
    expect(supportedLocale('en')?.code).toBe('en-US');
    expect(supportedLocale('tr-TR')).toBeUndefined();
    expect(chooseLocale().code).toBe('en-US');
    expect(document.cookie).toContain(`${localeCookie}=en-US`);
    expect(localePrefix('en-US')).toBe('');
  });
});

describe('shell rules', () => {
  it('tells search-engine and preview bots from browsers', () => {
    expect(isBot('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)')).toBe(true);
    expect(isBot('facebookexternalhit/1.1')).toBe(true);
    expect(isBot('Slackbot-LinkExpanding 1.0')).toBe(true);
    expect(isBot('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36')).toBe(false);
  });

  it('skips link prefetch with data-saver or on 2G, and runs at most four preloads at once', async () => {
    expect(prefetchAllowed({ saveData: true })).toBe(false);
    expect(prefetchAllowed({ effectiveType: 'slow-2g' })).toBe(false);
    expect(prefetchAllowed({ effectiveType: '4g' })).toBe(true);
    let running = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const work = () => limitPreload(async () => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise<void>((resolve) => releases.push(resolve));
      running -= 1;
    });
    const all = Promise.all(Array.from({ length: 7 }, work));
    for (let round = 0; round < 10 && releases.length < 7; round++) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      releases.splice(0).forEach((release) => release());
    }
    await all;
    expect(peak).toBe(maxConcurrentPreloads);
  });

  it('opens the palette on Ctrl+K and Cmd+K only', () => {
    expect(isPaletteShortcut(new KeyboardEvent('keydown', { key: 'k', ctrlKey: true }))).toBe(true);
    expect(isPaletteShortcut(new KeyboardEvent('keydown', { key: 'K', metaKey: true }))).toBe(true);
    expect(isPaletteShortcut(new KeyboardEvent('keydown', { key: 'k' }))).toBe(false);
  });

  it('reads builds/latest.json with a cache-busting timestamp; a new id is an update, a failure only a console error', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ id: 'b2', timestamp: 2 }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    expect(await checkForNewBuild('b1', 1234)).toEqual({ id: 'b2', timestamp: 2 });
    expect(fetchMock).toHaveBeenCalledWith('./builds/latest.json?t=1234', { cache: 'no-store' });
    expect(await checkForNewBuild('b2', 1235)).toBeNull();
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('offline'))));
    expect(await checkForNewBuild('b1')).toBeNull();
    expect(error).toHaveBeenCalledWith('The build manifest could not be fetched', expect.any(TypeError));
  });
});
