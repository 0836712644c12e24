import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import './Tabs.css';

export type TabItem = { id: string; label: ReactNode; content: ReactNode; disabled?: boolean };
export type TabsProps = {
  tabs: readonly TabItem[];
  /** The open tab, when the parent keeps it (for example in the URL); otherwise the tabs keep it themselves. */
  value?: string;
  defaultValue?: string;
  onValueChange?: (id: string) => void;
  /** Names the tab list for screen readers. */
  label: string;
  className?: string;
};

/**
 * WAI-ARIA tabs with automatic activation: Left/Right (wrapping), Home and End move between enabled tabs and open
 * them; only the open tab is in the Tab order, so Tab goes from the tab list straight into the panel.
 */
export function Tabs({ tabs, value, defaultValue, onValueChange, label, className }: TabsProps) {
  const baseId = useId();
  const firstEnabled = tabs.find((tab) => !tab.disabled)?.id ?? '';
  const [ownValue, setOwnValue] = useState(defaultValue ?? firstEnabled);
  const current = value ?? ownValue;
  const buttons = useRef(new Map<string, HTMLButtonElement>());

  const select = (id: string) => {
    if (value === undefined) setOwnValue(id);
    onValueChange?.(id);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const enabled = tabs.filter((tab) => !tab.disabled);
    const index = enabled.findIndex((tab) => tab.id === current);
    const targets: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: enabled.length - 1 };
    if (!(event.key in targets) || enabled.length === 0) return;
    event.preventDefault();
    const next = enabled[(targets[event.key] + enabled.length) % enabled.length];
    select(next.id);
    buttons.current.get(next.id)?.focus();
  };

  const tabId = (id: string) => `${baseId}-tab-${id}`;
  const panelId = (id: string) => `${baseId}-panel-${id}`;
  const open = tabs.find((tab) => tab.id === current);
  return (
    <div className={`ui-tabs${className ? ` ${className}` : ''}`}>
      <div role="tablist" aria-label={label} className="ui-tabs__list" onKeyDown={onKeyDown}>
        {tabs.map((tab) => {
          const selected = tab.id === current;
          return (
            <button
              key={tab.id}
              ref={(element) => {
                if (element) buttons.current.set(tab.id, element);
                else buttons.current.delete(tab.id);
              }}
              type="button"
              role="tab"
              id={tabId(tab.id)}
              aria-selected={selected}
              aria-controls={panelId(tab.id)}
              tabIndex={selected ? 0 : -1}
              disabled={tab.disabled}
              className={`ui-tabs__tab${selected ? ' ui-tabs__tab--selected' : ''}`}
              onClick={() => select(tab.id)}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      {open ? (
        <div role="tabpanel" id={panelId(open.id)} aria-labelledby={tabId(open.id)} tabIndex={0} className="ui-tabs__panel">
          {open.content}
        </div>
      ) : null}
    </div>
  );
}
