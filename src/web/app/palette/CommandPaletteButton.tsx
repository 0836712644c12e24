import { useEffect } from 'react';
import { t } from '../i18n/messages';
import { openCommandPalette } from './commandPalette';

/** True for Ctrl+K, or Cmd+K on a Mac. */
export const isPaletteShortcut = (event: KeyboardEvent): boolean => event.key.toLowerCase() === 'k' && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey;

/** The top bar's button to the command palette; Ctrl/Cmd+K opens it from anywhere in the console. */
export function CommandPaletteButton() {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isPaletteShortcut(event)) return;
      event.preventDefault(); // the browser's own Ctrl+K (search bar) would take the keys otherwise
      openCommandPalette();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <button type="button" className="shell-button command-palette-button" onClick={openCommandPalette} aria-keyshortcuts="Control+K Meta+K" title={t('palette.shortcut')}>
      {t('palette.open')}
    </button>
  );
}
