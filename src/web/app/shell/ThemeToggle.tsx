import { useState } from 'react';
import { applyTheme, nextTheme, storedTheme } from '../theme/theme';

const labels = { light: 'Light', dark: 'Dark', system: 'System' } as const;

/** Cycles the theme light → dark → system → light. */
export function ThemeToggle() {
  const [choice, setChoice] = useState(storedTheme);
  const cycle = () => {
    const next = nextTheme(choice);
    applyTheme(next);
    setChoice(next);
  };
  return (
    <button type="button" className="shell-button theme-toggle" onClick={cycle} aria-label={`Theme: ${labels[choice]}. Change theme`} data-theme-choice={choice}>
      Theme: {labels[choice]}
    </button>
  );
}
