import { cleanup } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { afterEach } from 'vitest';
import { installMessages } from '../../src/web/app/i18n/messages';

// The console fetches its message file before the first render; components under test read the same file from disk.
installMessages(JSON.parse(readFileSync(new URL('../../src/web/public/locales/en-US.json', import.meta.url), 'utf8')));

// Vitest runs without globals, so Testing Library cannot register its own cleanup: unmount after every test.
afterEach(() => {
  cleanup();
});
