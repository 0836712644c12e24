export type ThemeChoice = 'light' | 'dark' | 'system';
export type ResolvedTheme = 'light' | 'dark';
export const themeKey = 'theme';
const cycle: Record<ThemeChoice, ThemeChoice> = { light: 'dark', dark: 'system', system: 'light' };
const darkQuery = '(prefers-color-scheme: dark)';

/** The stored choice; a missing or unknown value reads as system (spec §4). */
export function storedTheme(): ThemeChoice {
  const value = localStorage.getItem(themeKey);
  return value === 'light' || value === 'dark' || value === 'system' ? value : 'system';
}

/** light → dark → system → light. */
export const nextTheme = (current: ThemeChoice): ThemeChoice => cycle[current];

/** The theme shown: the choice, or the OS colour scheme for system. */
export function resolvedTheme(choice: ThemeChoice): ResolvedTheme {
  if (choice !== 'system') return choice;
  return typeof window.matchMedia === 'function' && window.matchMedia(darkQuery).matches ? 'dark' : 'light';
}

/** Sets the shown theme as `data-theme` on <html> (tokens.css switches on it). */
export function showTheme(choice: ThemeChoice): void {
  document.documentElement.dataset.theme = resolvedTheme(choice);
}

/** Stores a choice and shows it. */
export function applyTheme(choice: ThemeChoice): void {
  localStorage.setItem(themeKey, choice);
  showTheme(choice);
}

/** At start: show the stored choice and keep `data-theme` in step with the OS while the choice is system. */
export function startTheme(): void {
  showTheme(storedTheme());
  if (typeof window.matchMedia !== 'function') return;
  window.matchMedia(darkQuery).addEventListener('change', () => {
    if (storedTheme() === 'system') showTheme('system');
  });
}
