import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import './Tabs.css';

/** `group` gathers tabs under a heading in the vertical (side navigation) form. */
export type TabItem = { id: string; label: ReactNode; content: ReactNode; disabled?: boolean; group?: string };
export type TabsProps = {
  tabs: readonly TabItem[];
  /** The open tab, when the parent keeps it (for example in the URL); otherwise the tabs keep it themselves. */
  value?: string;
  defaultValue?: string;
  onValueChange?: (id: string) => void;
  /** Names the tab list for screen readers. */
  label: string;
  className?: string;
  /**
   * `vertical`: a side navigation, tabs grouped under their `group` headings, for pages with more tabs than a row
   * holds (a device's fourteen); Up/Down move between them.
   */
  orientation?: 'horizontal' | 'vertical';
};

/**
 * WAI-ARIA tabs with automatic activation: Left/Right (wrapping), Home and End move between enabled tabs and open
 * them; only the open tab is in the Tab order, so Tab goes from the tab list straight into the panel.
 */
export function Tabs({ tabs, value, defaultValue, onValueChange, label, className, orientation = 'horizontal' }: TabsProps) {
  const baseId = useId();
  const firstEnabled = tabs.find((tab) => !tab.disabled)?.id ?? '';
  const [ownValue, setOwnValue] = useState(defaultValue ?? firstEnabled);
  const current = value ?? ownValue;
  const buttons = useRef(new Map<string, HTMLButtonElement>());

  const select = (id: string) => {
    if (value === undefined) setOwnValue(id);
    onValueChange?.(id);
  };

  // Groups in the order their first tab comes; a group's heading describes its tabs to screen readers. The keys
  // move through the tabs in the order they are shown, group by group.
  const groups = [...new Set(tabs.map((tab) => tab.group ?? ''))];
  const shown = orientation === 'vertical' ? groups.flatMap((group) => tabs.filter((tab) => (tab.group ?? '') === group)) : tabs;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const enabled = shown.filter((tab) => !tab.disabled);
    const index = enabled.findIndex((tab) => tab.id === current);
    const targets: Record<string, number> = orientation === 'vertical'
      ? { ArrowDown: index + 1, ArrowUp: index - 1, ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: enabled.length - 1 }
      : { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: enabled.length - 1 };
    if (!(event.key in targets) || enabled.length === 0) return;
    event.preventDefault();
    const next = enabled[(targets[event.key] + enabled.length) % enabled.length];
    select(next.id);
    buttons.current.get(next.id)?.focus();
  };

  const tabId = (id: string) => `${baseId}-tab-${id}`;
  const panelId = (id: string) => `${baseId}-panel-${id}`;
  const open = tabs.find((tab) => tab.id === current);
  const tabButton = (tab: TabItem, groupHeading?: string) => {
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
        aria-describedby={groupHeading}
        tabIndex={selected ? 0 : -1}
        disabled={tab.disabled}
        className={`ui-tabs__tab${selected ? ' ui-tabs__tab--selected' : ''}`}
        onClick={() => select(tab.id)}
      >
        {tab.label}
      </button>
    );
  };
  return (
    <div className={`ui-tabs ui-tabs--${orientation}${className ? ` ${className}` : ''}`}>
      <div role="tablist" aria-label={label} aria-orientation={orientation} className="ui-tabs__list" onKeyDown={onKeyDown}>
        {orientation === 'vertical'
          ? groups.map((group, index) => {
            const headingId = `${baseId}-group-${index}`;
            return (
              <div key={group} role="presentation" className="ui-tabs__group">
                {group && <span id={headingId} className="ui-tabs__group-heading" aria-hidden="true">{group}</span>}
                {tabs.filter((tab) => (tab.group ?? '') === group).map((tab) => tabButton(tab, group ? headingId : undefined))}
              </div>
            );
          })
          : tabs.map((tab) => tabButton(tab))}
      </div>
      {open ? (
        <div role="tabpanel" id={panelId(open.id)} aria-labelledby={tabId(open.id)} tabIndex={0} className="ui-tabs__panel">
          {open.content}
        </div>
      ) : null}
    </div>
  );
}
