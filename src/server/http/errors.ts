import type { ErrorObject } from 'ajv';

export type FieldErrors = Record<string, string[]>;
export type ErrorBody = FieldErrors | { detail: string; code?: string };

/** An answer that is not a success; thrown by handlers and turned into the reply by the app's error handler. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(typeof body.detail === 'string' ? body.detail : `HTTP ${status}`);
  }
}

/** A `{detail}` error (optionally with a machine-readable `code`). */
export function detailError(status: number, detail: string, code?: string): HttpError {
  return new HttpError(status, code ? { detail, code } : { detail });
}

export const notFound = (): HttpError => detailError(404, 'Not found.');

/** A 400 with field errors: `fieldError('name', 'This field is required.')` → `{"name": ["This field is required."]}`. */
export function fieldError(field: string, ...messages: string[]): HttpError {
  return new HttpError(400, { [field]: messages });
}

export const nonFieldErrorsKey = 'non_field_errors';

function messageFor(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'This field is required.';
    case 'additionalProperties':
      return 'Unknown field.';
    case 'type':
      return typeMessages[String(params.type)] ?? 'Invalid value.';
    case 'minLength':
      return params.limit === 1 ? 'This field may not be blank.' : `Ensure this field has at least ${params.limit} characters.`;
    case 'maxLength':
      return `Ensure this field has no more than ${params.limit} characters.`;
    case 'minimum':
      return `Ensure this value is greater than or equal to ${params.limit}.`;
    case 'maximum':
      return `Ensure this value is less than or equal to ${params.limit}.`;
    case 'minItems':
      return `Ensure this list has at least ${params.limit} items.`;
    case 'maxItems':
      return `Ensure this list has no more than ${params.limit} items.`;
    case 'uniqueItems':
      return 'Items must be unique.';
    case 'format':
      return `Enter a valid ${String(params.format).replace(/-/g, ' ')}.`;
    case 'pattern':
      return 'This value does not match the required pattern.';
    case 'enum':
    case 'const':
      return 'This is not a valid choice.';
    default:
      return 'Invalid value.';
  }
}

const typeMessages: Record<string, string> = {
  object: 'Expected a JSON object.',
  array: 'Expected a list of items.',
  string: 'Not a valid string.',
  integer: 'A valid integer is required.',
  number: 'A valid number is required.',
  boolean: 'Must be a valid boolean.',
};

function fieldOf(error: ErrorObject): string {
  const segments = error.instancePath.split('/').slice(1).map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') segments.push(String((error.params as { missingProperty: string }).missingProperty));
  if (error.keyword === 'additionalProperties') segments.push(String((error.params as { additionalProperty: string }).additionalProperty));
  return segments.length ? segments.join('.') : nonFieldErrorsKey;
}

/**
 * Turns ajv errors into DRF-style field errors.
 * Before: `[{instancePath: "/name", keyword: "maxLength", params: {limit: 5}}]`;
 * after: `{"name": ["Ensure this field has no more than 5 characters."]}`.
 * A failed `anyOf`/`oneOf` reports the first message of its branches instead of one per branch.
 */
export function fieldErrorsFromAjv(errors: readonly ErrorObject[]): FieldErrors {
  const combinatorPaths = new Set(errors.filter((error) => error.keyword === 'anyOf' || error.keyword === 'oneOf').map((error) => error.instancePath));
  // A Map, not an object literal: field names such as "constructor" come from the request.
  const result = new Map<string, string[]>();
  for (const error of errors) {
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') continue;
    const field = fieldOf(error);
    const messages = result.get(field) ?? [];
    result.set(field, messages);
    if (combinatorPaths.has(error.instancePath) && messages.length) continue;
    const message = messageFor(error);
    if (!messages.includes(message)) messages.push(message);
  }
  return result.size ? Object.fromEntries(result) : { [nonFieldErrorsKey]: ['Invalid request.'] };
}
