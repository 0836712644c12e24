import type { ReactNode } from 'react';
import { t } from '../../app/i18n/messages';
import { Tooltip } from '../../ui';

export type CollapsedValuesProps = {
  /** What the cell shows of each value (a badge, a text); only the first is drawn in the cell. */
  items: readonly ReactNode[];
  /** Each value as text, for the list of the others. */
  texts: readonly string[];
};

/**
 * Several values in one table cell, as "first +3": a row keeps one line however many sources or values an asset
 * has, and the "+3" (a button, so the keyboard reaches it too) lists the others in a tooltip.
 */
export function CollapsedValues({ items, texts }: CollapsedValuesProps) {
  if (items.length === 0) return <span className="inventory-empty">-</span>;
  if (items.length === 1) return <>{items[0]}</>;
  const others = texts.slice(1);
  return (
    <span className="inventory-values">
      {items[0]}
      <Tooltip content={<ul className="inventory-values__others">{others.map((text, index) => <li key={index}>{text}</li>)}</ul>}>
        <button type="button" className="inventory-more" aria-label={t('inventories.moreValues', { count: others.length, list: others.join(', ') })}>
          +{others.length}
        </button>
      </Tooltip>
    </span>
  );
}
