import { useSyncExternalStore } from 'react';
import type { ChartTheme } from './widgetSpecs';

// Charts follow the console's theme: <html data-theme> (set by app/theme), watched for changes.
function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => observer.disconnect();
}

const current = (): ChartTheme => (document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light');

/** The theme charts are drawn in, re-rendering when the user switches it. */
export function useDocumentTheme(): ChartTheme {
  return useSyncExternalStore(subscribe, current, () => 'light');
}
