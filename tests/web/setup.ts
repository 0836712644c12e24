import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { installMessages } from '../../src/web/app/i18n/messages';
import messages from '../../src/web/public/locales/en-US.json';

// The console fetches its message file before the first render; components under test get the same file.
installMessages(messages);

// The whole suite shares two cores with the server and browser tests: a page that loads its schema and answers can
// take more than the default second to appear there. findBy* and waitFor wait up to 5 s; a page that never shows
// still fails.
configure({ asyncUtilTimeout: 5_000 });

// Vitest runs without globals, so Testing Library cannot register its own cleanup: unmount after every test.
afterEach(() => {
  cleanup();
});
