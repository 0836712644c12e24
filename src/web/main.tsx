import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { reloadAfterChunkError } from './app/chunkReload';
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
  startTheme();
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

try {
  mount();
} catch (error) {
  console.error('Error while mounting app', error);
}
