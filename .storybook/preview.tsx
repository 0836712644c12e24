import type { Decorator, Preview } from '@storybook/react-vite';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useLayoutEffect, useState } from 'react';
import '../src/web/ui/tokens.css';
import '../src/web/app/shell/shell.css';
import { installMessages } from '../src/web/app/i18n/messages';
import messages from '../src/web/public/locales/en-US.json';

// The console fetches its message file before rendering; stories get the same file bundled.
installMessages(messages);

type ThemeName = 'light' | 'dark';

/** Shows the story in the theme chosen in the toolbar, the way the console does: data-theme on <html>. */
const withTheme: Decorator = (Story, context) => {
  const theme: ThemeName = context.globals.theme === 'dark' ? 'dark' : 'light';
  function Themed() {
    useLayoutEffect(() => {
      document.documentElement.dataset.theme = theme;
    }, []);
    return <Story />;
  }
  return <Themed />;
};

/** Components that read through TanStack Query (a form widget asking for a schema) get a client of their own. */
const withQueryClient: Decorator = (Story) => {
  function Queried() {
    const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false } } }));
    return <QueryClientProvider client={client}><Story /></QueryClientProvider>;
  }
  return <Queried />;
};

const preview: Preview = {
  globalTypes: {
    theme: {
      description: 'Console theme (data-theme on the document)',
      toolbar: { title: 'Theme', icon: 'mirror', items: [{ value: 'light', title: 'Light' }, { value: 'dark', title: 'Dark' }], dynamicTitle: true },
    },
  },
  initialGlobals: { theme: 'light' },
  decorators: [withTheme, withQueryClient],
  parameters: { layout: 'padded', controls: { expanded: true } },
};

export default preview;
