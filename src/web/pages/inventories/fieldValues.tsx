import { formatDate } from '../../../core/dates';
import { formatNumber } from '../../../core/format/numbers';
import { t } from '../../app/i18n/messages';
import { CollapsedValues } from './CollapsedValues';
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

/** Display names of coded values, by value (a field map entry's `value_titles`). */
type ValueTitles = FieldMapEntry['value_titles'];

/** One value as text: booleans as Yes/No, coded values by their display names, dates and numbers formatted, objects as JSON, nothing as a dash. */
export function valueText(value: unknown, type?: FieldMapEntry['value_type'], titles?: ValueTitles): string {
  if (value === null || value === undefined || value === '') return '-';
  if (typeof value === 'boolean') return value ? t('renderers.yes') : t('renderers.no');
  if ((typeof value === 'string' || typeof value === 'number') && titles && Object.hasOwn(titles, String(value))) return titles[String(value)]!;
  // A calendar day (an OS end of life) reads as a day, not as its midnight.
  if (type === 'date') return formatDate(value, typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? 'date' : 'date-time');
  // Numbers through Intl: grouped, float noise gone (194062.91999999998 → "194,062.92"); a whole count keeps no decimals.
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The values of one field of an asset, one per source, as the list cell shows them: the first, and "+N" for the others. */
export function FieldValues({ values, type, titles }: { values: unknown; type?: FieldMapEntry['value_type']; titles?: ValueTitles }) {
  const list = Array.isArray(values) ? values : values === undefined ? [] : [values];
  const texts = list.map((value) => valueText(value, type, titles));
  // A date keeps to one line: wrapped, "21 November 2026, 00:00" reads as three values.
  const items = type === 'date' ? texts.map((text) => <span className="ui-nowrap">{text}</span>) : texts;
  return <CollapsedValues items={items} texts={texts} />;
}
