import { t } from '../../app/i18n/messages';
import { useState, type KeyboardEvent } from 'react';
import type { Suggestion } from './querySuggestions';

/**
 * The keyboard of a suggestion list (the ARIA combobox pattern): arrows move the highlight, Tab takes the highlighted
 * (or first) suggestion, Enter takes one only once the arrows chose it (otherwise Enter runs the query), Escape
 * closes the list until the next keystroke.
 */
export function useSuggestionKeys(items: Suggestion[], accept: (item: Suggestion) => void) {
  const [active, setActive] = useState(-1);
  const [closed, setClosed] = useState(false);
  const open = !closed && items.length > 0;
  const reset = () => {
    setActive(-1);
    setClosed(false);
  };
  const take = (item: Suggestion) => {
    accept(item);
    setActive(-1);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (!open) return;
    const move = (step: number) => setActive((items.length + (active < 0 && step < 0 ? 0 : active) + step) % items.length);
    if (event.key === 'ArrowDown') move(1);
    else if (event.key === 'ArrowUp') move(-1);
    else if (event.key === 'Escape') setClosed(true);
    else if (event.key === 'Tab' && !event.shiftKey) take(items[Math.max(active, 0)]);
    else if (event.key === 'Enter' && active >= 0) take(items[active]);
    else return;
    event.preventDefault();
  };
  return { open, active: open && active < items.length ? active : -1, onKeyDown, reset, take };
}

/** The list under the query bar: each suggestion's title with its key or meaning, pickable by mouse as well. */
export function QuerySuggestionList({ id, items, active, onPick }: { id: string; items: Suggestion[]; active: number; onPick: (item: Suggestion) => void }) {
  return (
    <ul className="query-suggestions" id={id} role="listbox" aria-label={t('inventories.querySuggestions')}>
      {items.map((item, index) => (
        <li
          key={`${item.label} ${item.detail}`}
          id={`${id}-${index}`}
          role="option"
          aria-selected={index === active}
          className={`query-suggestions__item${index === active ? ' query-suggestions__item--active' : ''}`}
          // mousedown, not click: the input keeps its focus and caret.
          onMouseDown={(event) => {
            event.preventDefault();
            onPick(item);
          }}
        >
          <span>{item.label}</span> <span className="inventory-muted">{item.detail}</span>
        </li>
      ))}
    </ul>
  );
}
