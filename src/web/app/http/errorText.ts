import { t } from '../i18n/messages';
import type { FieldErrors } from './fieldErrors';

type Body = Record<string, unknown>;
const isObject = (value: unknown): value is Body => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The text of an error answer, in the order of spec §8: string detail, string message, data object, errors object,
 * string error, otherwise the whole body as a list without its count and results keys. Fallback "Unknown error".
 * Before: `{"name": ["This field is required."], "count": 0}`; after: `"name: This field is required."`.
 */
export function errorText(body: unknown): string {
  if (typeof body === 'string') return body.trim() || t('error.unknown');
  if (!isObject(body)) return t('error.unknown');
  if (typeof body.detail === 'string') return body.detail;
  if (typeof body.message === 'string') return body.message;
  if (isObject(body.data)) return listText(body.data) || t('error.unknown');
  if (isObject(body.errors)) return listText(body.errors) || t('error.unknown');
  if (typeof body.error === 'string') return body.error;
  const { count: _count, results: _results, ...rest } = body;
  return listText(rest) || t('error.unknown');
}

function valueText(value: unknown): string {
  if (Array.isArray(value)) return value.map(valueText).join(' ');
  if (isObject(value)) return Object.entries(value).map(([key, inner]) => `${key}: ${valueText(inner)}`).join(', ');
  return String(value);
}

/** One line per key: `key: messages`; the notification renders the line breaks. */
function listText(entries: Body): string {
  return Object.entries(entries)
    .map(([key, value]) => `${key}: ${valueText(value)}`)
    .join('\n');
}

/**
 * Field-level messages of an error answer: the `data` object (spec §8), or a 400 body of field errors
 * (`{"field": ["message"]}`, the server's shape). Bodies with a string detail carry none.
 */
export function fieldErrorsOf(body: unknown): FieldErrors {
  if (!isObject(body)) return {};
  const source = isObject(body.data) ? body.data : typeof body.detail === 'string' ? {} : body;
  const entries = Object.entries(source)
    .filter(([key]) => key !== 'count' && key !== 'results')
    .map(([key, value]) => [key, (Array.isArray(value) ? value : [value]).filter((message) => typeof message === 'string') as string[]] as const)
    .filter(([, messages]) => messages.length > 0);
  return Object.fromEntries(entries);
}
