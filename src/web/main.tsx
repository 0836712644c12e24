import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { reloadAfterChunkError } from './app/chunkReload';
import { chooseLocale } from './app/i18n/locales';
import { loadMessages } from './app/i18n/messages';
import { startBuildCheck } from './app/pwa/buildCheck';
import { registerServiceWorker } from './app/pwa/serviceWorker';
import { currentRoutePath } from './app/http/fieldErrors';
import { queryClient } from './app/queryClient';
import { isNotFoundError } from './app/routeErrors';
import { createConsoleRouter } from './app/router';
import { dropExpiredToken } from './app/session/session';
import { startTheme } from './app/theme/theme';
import './app/shell/shell.css';

// The design system's stylesheets (tokens.css: light and dark tokens) load first when they exist.
import.meta.glob('./ui/*.css', { eager: true });

// Vite reports a chunk whose preload failed (a new deploy removed it): reload once per path within 10 s.
window.addEventListener('vite:preloadError', (event) => {
  if (reloadAfterChunkError(currentRoutePath())) event.preventDefault();
});

function mount(): void {
  dropExpiredToken();
  const container = document.getElementById('app');
  if (!container) throw new Error('The #app element is missing from index.html');
  const router = createConsoleRouter();
  createRoot(container, {
    // A fatal Page Not Found is an expected screen (a mistyped id), not a fault: only other caught errors are logged.
    onCaughtError: (error, info) => {
      if (!isNotFoundError(error)) console.error(error, info.componentStack);
    },
  }).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
}

/** Before the first render: theme, locale and its message file (every visible string comes from it). */
async function start(): Promise<void> {
  startTheme();
  const locale = chooseLocale();
  document.documentElement.lang = locale.code;
  document.documentElement.dir = locale.dir;
  await loadMessages(locale);
  mount();
  // The installable app and the build-update check belong to built consoles, not to the dev server.
  if (import.meta.env.PROD) {
    void registerServiceWorker();
    startBuildCheck();
  }
}

start().catch((error: unknown) => console.error('Error while mounting app', error));
