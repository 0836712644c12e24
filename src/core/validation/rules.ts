import type { ValidationRuleName } from '../../generated/validationRules.js';
import { toDate } from '../dates/parseDate.js';
import { emailPattern } from '../schemaVocabulary.js';
import { isScannerTarget } from './scannerTarget.js';

/** A file as the rules see it: a browser File, or anything with the same fields. */
export type FileLike = { name: string; size: number; type: string };
export type ImageSize = { width: number; height: number };

/** What a rule may need besides the value: the other values of the form, and a way to measure an image. */
export type RuleContext = {
  values?: Record<string, unknown>;
  measureImage?: (file: FileLike) => Promise<ImageSize>;
};

export type RuleCheck = (value: unknown, parameters: string[], context: RuleContext) => boolean | Promise<boolean>;

/**
 * `each`: the rule tests single values; given a list (several files, a multi-select) every item must pass.
 * `checksEmpty`: the rule also judges an empty value; every other rule lets an empty value through (only
 * `required` makes a field mandatory).
 */
type RuleImplementation = { check: RuleCheck; each?: true; checksEmpty?: true };

const text = (value: unknown): string => (typeof value === 'string' ? value : String(value));
const asNumber = (value: unknown): number => {
  if (typeof value === 'number') return value;
  const trimmed = text(value).trim();
  return trimmed === '' ? Number.NaN : Number(trimmed);
};
const matches = (pattern: RegExp) => ({ check: (value: unknown) => pattern.test(text(value)), each: true }) as const;
const numberCheck = (test: (number: number, parameters: number[]) => boolean) =>
  ({
    check: (value: unknown, parameters: string[]) => {
      const number = asNumber(value);
      return !Number.isNaN(number) && test(number, parameters.map(Number));
    },
    each: true,
  }) as const;
const isFile = (value: unknown): value is FileLike =>
  typeof value === 'object' && value !== null && typeof (value as FileLike).name === 'string' && typeof (value as FileLike).size === 'number';
const fileCheck = (test: (file: FileLike, parameters: string[]) => boolean) =>
  ({ check: (value: unknown, parameters: string[]) => isFile(value) && test(value, parameters), each: true }) as const;
/**
 * A file's MIME type against one of the rule's: `image/*` takes any image, and a `+suffix` is optional as the
 * reference has it (`image/svg+xml` takes `image/svg`). Unlike the reference's unanchored pattern, the whole type
 * must match, so `mimes:text/plain` does not take `text/plainx`.
 */
function mimeMatches(type: string, pattern: string): boolean {
  const [given, wanted] = [type.toLowerCase(), pattern.toLowerCase()];
  if (wanted.endsWith('/*')) return given.startsWith(wanted.slice(0, -1)) && given.length > wanted.length - 1;
  return given === wanted || (wanted.includes('+') && given === wanted.slice(0, wanted.indexOf('+')));
}

/**
 * Empty for the rules: nothing, `''` or an empty list (spec §5: only `required` rejects it). Whitespace is a
 * value: `no_space`, `email` or `alpha` judge `"   "` as they would any text, as the reference does.
 */
export function isEmptyValue(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/** Characters, not UTF-16 code units: `'𩸽寿司'` is 3 long, as for the reference and for the API's `maxLength`. */
const characterCount = (value: unknown): number => [...text(value)].length;

// numeric: ASCII digits, or Arabic-Indic digits as the reference accepts them (a whole value in one script, never
// mixed). digits and integer stay ASCII, as in the reference: they carry codes and numbers the server reads.
const numeric = /^([0-9]+|[٠-٩]+)$/;

export const ruleImplementations: Record<ValidationRuleName, RuleImplementation> = {
  // Blank text does not fill a required field, though other rules judge it as a value.
  required: { check: (value) => !isEmptyValue(value) && value !== false && text(value).trim() !== '', checksEmpty: true },
  email: matches(emailPattern),
  min: { check: (value, [length]) => characterCount(value) >= Number(length), each: true },
  max: { check: (value, [length]) => characterCount(value) <= Number(length), each: true },
  min_value: numberCheck((number, [min]) => number >= min),
  max_value: numberCheck((number, [max]) => number <= max),
  between: numberCheck((number, [min, max]) => number >= min && number <= max),
  integer: matches(/^-?[0-9]+$/),
  numeric: matches(numeric),
  digits: { check: (value, [length]) => /^[0-9]+$/.test(text(value)) && text(value).length === Number(length), each: true },
  // The alpha family takes letters of every script (the reference lists some alphabets only, and a locale).
  alpha: matches(/^[\p{L}\p{M}]+$/u),
  alpha_num: matches(/^[\p{L}\p{M}\p{Nd}]+$/u),
  alpha_dash: matches(/^[\p{L}\p{M}\p{Nd}_-]+$/u),
  alpha_spaces: matches(/^[\p{L}\p{M}\s]+$/u),
  regex: { check: (value, [pattern]) => new RegExp(pattern).test(text(value)), each: true },
  // Only http, https and ftp with a host: a form's URL is called or linked to (the reference takes any URL).
  url: {
    check: (value) => {
      if (!URL.canParse(text(value))) return false;
      const url = new URL(text(value));
      return ['http:', 'https:', 'ftp:'].includes(url.protocol) && url.hostname !== '';
    },
    each: true,
  },
  one_of: { check: (value, values) => values.includes(text(value)), each: true },
  not_one_of: { check: (value, values) => !values.includes(text(value)), each: true },
  confirmed: { check: (value, [target], context) => value === context.values?.[target], checksEmpty: true },
  size: fileCheck((file, [size]) => file.size <= Number(size) * 1024),
  // By type, so TIFF or AVIF count; the reference checks a list of file name extensions.
  image: fileCheck((file) => file.type.startsWith('image/')),
  ext: fileCheck((file, extensions) => extensions.some((extension) => file.name.toLowerCase().endsWith(`.${extension.toLowerCase()}`))),
  mimes: fileCheck((file, types) => types.some((type) => mimeMatches(file.type, type))),
  dimensions: {
    check: async (value, [width, height], context) => {
      // Only an image has dimensions: a PDF is refused before it is measured, as the reference does.
      if (!isFile(value) || !value.type.toLowerCase().startsWith('image/') || !context.measureImage) return false;
      const size = await context.measureImage(value).catch(() => null);
      return size !== null && size.width === Number(width) && size.height === Number(height);
    },
    each: true,
  },
  greaterOrZero: numberCheck((number, [min]) => number === 0 || number >= min),
  greaterOrEmpty: numberCheck((number, [min]) => number >= min),
  array_min: { check: (value, [length]) => (Array.isArray(value) ? value.length : 0) >= Number(length), checksEmpty: true },
  array_max: { check: (value, [length]) => (Array.isArray(value) ? value.length : 0) <= Number(length), checksEmpty: true },
  numericOrNotEmpty: matches(numeric),
  min_date: {
    check: (value, [date]) => {
      const given = toDate(value);
      const after = toDate(date);
      if (!after) throw new Error(`min_date: "${date}" is not a date in an accepted format`);
      return given !== null && given.getTime() > after.getTime();
    },
    each: true,
  },
  alpha_num_underscore: matches(/^[A-Za-z0-9_]+$/),
  no_space: matches(/^\S+$/),
  scanner_target: { check: (value) => isScannerTarget(text(value)), each: true },
};
