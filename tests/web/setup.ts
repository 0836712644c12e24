import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { installMessages } from '../../src/web/app/i18n/messages';
import messages from '../../src/web/public/locales/en-US.json';

// The console fetches its message file before the first render; components under test get the same file.
installMessages(messages);

// Vitest runs without globals, so Testing Library cannot register its own cleanup: unmount after every test.
afterEach(() => {
  cleanup();
});
