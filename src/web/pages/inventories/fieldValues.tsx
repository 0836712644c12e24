import { formatDate } from '../../../core/dates';
import type { FieldMapEntry } from './inventoryApi';

/** Spec §3 label: the key split on dots and underscores, each part capitalised. */
export function fieldLabel(key: string, entry?: FieldMapEntry): string {
  if (entry?.label) return entry.label;
  return key.split(/[._]/).filter(Boolean).map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join(' ');
}

/**
 * The keys of a field map an asset has values for, without the per-source Specifics or the fields of another
 * inventory a query may name (`Device.` of software and vulnerabilities).
 */
export function ownFieldKeys(asset: Record<string, unknown>, fieldMap: Record<string, unknown>): string[] {
  return Object.keys(fieldMap).filter((key) => !key.startsWith('Specifics.') && !key.startsWith('Device.') && Array.isArray(asset[key]) && (asset[key] as unknown[]).length > 0);
}

/** One value as text: dates formatted, objects as JSON, nothing as a dash. */
export function valueText(value: unknown, type?: FieldMapEntry['value_type']): string {
  if (value === null || value === undefined || value === '') return '-';
  if (type === 'date') return formatDate(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The values of one field of an asset, one per source, as the list cell shows them. */
export function FieldValues({ values, type }: { values: unknown; type?: FieldMapEntry['value_type'] }) {
  const list = Array.isArray(values) ? values : values === undefined ? [] : [values];
  if (!list.length) return <span className="inventory-empty">-</span>;
  if (list.length === 1) return <>{valueText(list[0], type)}</>;
  return (
    <span className="inventory-values" title={list.map((value) => valueText(value, type)).join('\n')}>
      {valueText(list[0], type)} <span className="inventory-more">+{list.length - 1}</span>
    </span>
  );
}
