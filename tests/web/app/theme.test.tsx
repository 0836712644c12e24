import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ThemeToggle } from '../../../src/web/app/shell/ThemeToggle';
import { nextTheme, startTheme, storedTheme } from '../../../src/web/app/theme/theme';

let prefersDark = false;
let changeListener: (() => void) | null = null;

beforeEach(() => {
  localStorage.clear();
  prefersDark = false;
  vi.stubGlobal('matchMedia', (query: string) => ({
    media: query,
    get matches() {
      return prefersDark;
    },
    addEventListener: (_type: string, listener: () => void) => (changeListener = listener),
    removeEventListener: () => undefined,
  }));
});
afterEach(() => vi.unstubAllGlobals());

describe('theme', () => {
  it('cycles light → dark → system → light', () => {
    expect(nextTheme('light')).toBe('dark');
    expect(nextTheme('dark')).toBe('system');
    expect(nextTheme('system')).toBe('light');
  });

  it('reads a missing or unknown stored value as system', () => {
    expect(storedTheme()).toBe('system');
    localStorage.setItem('theme', 'sepia');
    expect(storedTheme()).toBe('system');
  });

  it('follows the OS colour scheme while the choice is system', () => {
    prefersDark = true;
    startTheme();
    expect(document.documentElement.dataset.theme).toBe('dark');
    prefersDark = false;
    changeListener?.();
    expect(document.documentElement.dataset.theme).toBe('light');
  });

  it('stores each choice under "theme" and sets data-theme on <html> when toggled', () => {
    prefersDark = true;
    localStorage.setItem('theme', 'light');
    startTheme();
    render(<ThemeToggle />);
    const toggle = screen.getByRole('button', { name: /Change theme/ });
    const seen: (string | null | undefined)[][] = [];
    for (let step = 0; step < 3; step += 1) {
      act(() => void fireEvent.click(toggle));
      seen.push([localStorage.getItem('theme'), document.documentElement.dataset.theme]);
    }
    expect(seen).toEqual([
      ['dark', 'dark'],
      ['system', 'dark'],
      ['light', 'light'],
    ]);
  });
});
