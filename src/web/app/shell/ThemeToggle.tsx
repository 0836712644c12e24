import { t } from '../i18n/messages';
import { useState } from 'react';
import { applyTheme, nextTheme, storedTheme } from '../theme/theme';


/** Cycles the theme light → dark → system → light. */
export function ThemeToggle() {
  const [choice, setChoice] = useState(storedTheme);
  const cycle = () => {
    const next = nextTheme(choice);
    applyTheme(next);
    setChoice(next);
  };
  return (
    <button type="button" className="shell-button theme-toggle" onClick={cycle} aria-label={t('theme.change', { theme: t(`theme.${choice}`) })} data-theme-choice={choice}>
      {t('theme.current', { theme: t(`theme.${choice}`) })}
    </button>
  );
}
