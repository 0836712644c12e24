import type { ErrorObject } from 'ajv';
import { Conflict, DomainError, Forbidden, Invalid, NotFound, TooLarge, Unauthenticated, Unavailable, type ErrorBody, type FieldErrors } from '../errors.js';

// The domain's refusals, for the route modules that throw them too (one definition, in ../errors.ts).
export { fieldError, notFound, requireProvider, snapshotPruned } from '../errors.js';
export type { ErrorBody, FieldErrors } from '../errors.js';

/** An answer that is not a success, with its status: what the HTTP layer itself refuses (429, 413, a 400 of its own). */
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

// The one place a kind of domain error becomes an HTTP status.
const statusOfKind = new Map<abstract new (body: ErrorBody) => DomainError, number>([
  [Invalid, 400],
  [Unauthenticated, 401],
  [Forbidden, 403],
  [NotFound, 404],
  [Conflict, 409],
  [Unavailable, 503],
  [TooLarge, 413],
]);

/** The status and body of a refusal, domain or HTTP; undefined for any other error (a fault, answered 500). */
export function refusalAnswer(error: unknown): { status: number; body: ErrorBody } | undefined {
  if (error instanceof HttpError) return { status: error.status, body: error.body };
  if (error instanceof DomainError) return { status: statusOfKind.get(error.constructor as typeof DomainError)!, body: error.body };
  return undefined;
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
