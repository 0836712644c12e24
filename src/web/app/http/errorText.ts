import { t } from '../i18n/messages';
import type { FieldErrors } from './fieldErrors';

type Body = Record<string, unknown>;
const isObject = (value: unknown): value is Body => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The entries an error answer lists field by field (its data or errors object, or the body itself), or null when it carries one text. */
function listedEntries(body: Body): Body | null {
  if (typeof body.detail === 'string' || typeof body.message === 'string') return null;
  if (isObject(body.data)) return body.data;
  if (isObject(body.errors)) return body.errors;
  if (typeof body.error === 'string') return null;
  const { count: _count, results: _results, ...rest } = body;
  return rest;
}

/**
 * The text of an error answer, in the order of spec §8: string detail, string message, data object, errors object,
 * string error, otherwise the whole body as a list without its count and results keys. Fallback "Unknown error".
 * Before: `{"name": ["This field is required."], "count": 0}`; after: `"name: This field is required."`.
 */
export function errorText(body: unknown): string {
  if (typeof body === 'string') return body.trim() || t('error.unknown');
  if (!isObject(body)) return t('error.unknown');
  const entries = listedEntries(body);
  if (entries) return listText(entries) || t('error.unknown');
  return [body.detail, body.message, body.error].find((text): text is string => typeof text === 'string') ?? t('error.unknown');
}

/**
 * The notification text of a failed call whose form lists some fields' messages under the fields themselves (issue
 * 36): those are not repeated; one line asks to fix the highlighted fields, and the others follow by their titles.
 * Before: `{"username": ["Taken."], "scope.query": ["Does not parse."]}` with username shown; after:
 * "Fix the highlighted fields.\nQuery: Does not parse.".
 */
export function notificationText(body: unknown, isShown: (field: string) => boolean): string {
  const entries = isObject(body) ? listedEntries(body) : null;
  if (!entries || !Object.keys(entries).some(isShown)) return errorText(body);
  const others = listText(Object.fromEntries(Object.entries(entries).filter(([field]) => !isShown(field))));
  return [t('error.fixHighlightedFields'), others].filter(Boolean).join('\n');
}

function valueText(value: unknown): string {
  if (Array.isArray(value)) return value.map(valueText).join(' ');
  if (isObject(value)) return Object.entries(value).map(([key, inner]) => `${key}: ${valueText(inner)}`).join(', ');
  return String(value);
}

/**
 * A field's title as people read it, from its key in an error body: the last part of a path, words capitalised once.
 * Before: `scope.query`, `time_zone`; after: "Query", "Time zone". Errors of no field (`non_field_errors`) have none.
 */
export function fieldTitleOf(key: string): string | null {
  if (key === 'non_field_errors' || key === 'detail') return null;
  const words = (key.split('.').filter((part) => !/^[0-9]+$/.test(part)).at(-1) ?? key).replace(/_/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : null;
}

/** One line per key: `Field title: messages`; the notification renders the line breaks. */
function listText(entries: Body): string {
  return Object.entries(entries)
    .map(([key, value]) => {
      const title = fieldTitleOf(key);
      return title ? `${title}: ${valueText(value)}` : valueText(value);
    })
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
