import { t } from '../../app/i18n/messages';
import { formatDate } from '../../../core/dates';
import type { PropertySchema } from './entitySchema';

/** What an empty value, a missing date and the year-0001 "no date" show (spec §3, §5). */
export const emptyText = '-';
export const secretText = '**********';


function formatObject(value: Record<string, unknown>): string {
  for (const key of ['name', 'title', 'label', 'username', 'slug']) {
    if (typeof value[key] === 'string' && value[key]) return value[key] as string;
  }
  return JSON.stringify(value);
}

/**
 * A property's value as the text a list cell or detail row shows: booleans as Yes/No, dates formatted, lists joined
 * with commas, objects by their name, secrets masked, and nothing as a dash.
 */
export function formatValue(value: unknown, property: PropertySchema = {}): string {
  if (property['x-secret']) return value === undefined || value === null || value === '' ? emptyText : secretText;
  if (value === undefined || value === null || value === '') return emptyText;
  if (typeof value === 'boolean') return value ? t('renderers.yes') : t('renderers.no');
  // An option of an enum reads as the form offered it: its display name (x-enum-titles) from the message files.
  const labels = property['x-enum-labels'];
  if ((typeof value === 'string' || typeof value === 'number') && labels && Object.hasOwn(labels, String(value))) return labels[String(value)]!;
  if (typeof value === 'string') {
    if (property.format === 'date-time' || property.format === 'date') return formatDate(value, property.format);
    return value;
  }
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) {
    const parts = value.map((item) => formatValue(item, property.items ?? {})).filter((text) => text !== emptyText);
    return parts.length ? parts.join(', ') : emptyText;
  }
  if (typeof value === 'object') return formatObject(value as Record<string, unknown>);
  return String(value);
}
