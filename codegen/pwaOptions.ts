import { readFileSync } from 'node:fs';
import type { VitePWAOptions } from 'vite-plugin-pwa';
import { product } from '../src/core/product.js';

// The manifest is written once per build, in the default locale; its description is a message like any other text.
const defaultMessages = JSON.parse(readFileSync(new URL('../src/web/public/locales/en-US.json', import.meta.url), 'utf8')) as Record<string, string>;

/**
 * The installable app: a web app manifest and a Workbox service worker that precaches the console's own files.
 * Only build output is precached; nothing is cached at run time, so API answers (and anything carrying a token) never
 * reach a cache. No navigation fallback either: hash routing only ever navigates to index.html, and a fallback would
 * answer the single sign-on callback (/api/sso/callback) with the console instead of the server. builds/ (the build
 * manifest) must always come from the network.
 */
export const pwaOptions: Partial<VitePWAOptions> = {
  registerType: 'autoUpdate',
  injectRegister: false, // registered by src/web/app/pwa/serviceWorker.ts, which emits the events of spec §4
  manifestFilename: 'manifest.webmanifest',
  includeAssets: ['images/favicon.svg'],
  manifest: {
    id: './',
    name: product.name,
    short_name: product.name,
    description: defaultMessages['shell.appDescription'],
    lang: 'en-US',
    dir: 'ltr',
    start_url: './',
    scope: './',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: '#1f7a5c',
    icons: [
      { src: 'images/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: 'images/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
      { src: 'images/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    globPatterns: ['**/*.{js,css,html,svg,png,json,webmanifest}'],
    // Adapter icons (hundreds) and the adapters' message file (half a megabyte of connection-form texts) load when shown.
    globIgnores: ['builds/**', 'images/adapters/**', 'locales/*.adapters.json'],
    maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
    navigateFallback: null,
    runtimeCaching: [],
    cleanupOutdatedCaches: true,
    clientsClaim: true,
    skipWaiting: true,
  },
};
