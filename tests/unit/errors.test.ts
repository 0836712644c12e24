import { describe, expect, it } from 'vitest';
import { createServerAjv } from '../../codegen/validators.js';
import { Conflict, fieldError, Forbidden, Invalid, NotFound, Unauthenticated, Unavailable } from '../../src/server/errors.js';
import { fieldErrorsFromAjv, refusalAnswer } from '../../src/server/http/errors.js';

const validate = createServerAjv({ coerce: false }).compile({
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 5 },
    email: { type: 'string', anyOf: [{ format: 'email' }, { maxLength: 0 }] },
    tags: { type: 'array', items: { type: 'string', maxLength: 3 } },
  },
});

function errorsFor(body: unknown) {
  validate(body);
  return fieldErrorsFromAjv(validate.errors ?? []);
}

describe('field errors from ajv', () => {
  it('names the missing, unknown and too long fields in DRF style', () => {
    expect(errorsFor({ extra: 1 })).toEqual({ name: ['This field is required.'], extra: ['Unknown field.'] });
    expect(errorsFor({ name: 'toolong' })).toEqual({ name: ['Ensure this field has no more than 5 characters.'] });
    expect(errorsFor({ name: '' })).toEqual({ name: ['This field may not be blank.'] });
  });

  it('reports a body that is not an object under non_field_errors', () => {
    expect(errorsFor([1, 2])).toEqual({ non_field_errors: ['Expected a JSON object.'] });
  });

  it('gives one message for a failed anyOf and dotted paths for nested items', () => {
    expect(errorsFor({ name: 'a', email: 'nope' })).toEqual({ email: ['Enter a valid email.'] });
    expect(errorsFor({ name: 'a', tags: ['ok', 'long'] })).toEqual({ 'tags.1': ['Ensure this field has no more than 3 characters.'] });
  });

  it('handles field names that collide with Object.prototype', () => {
    expect(errorsFor({ name: 'a', constructor: 1, __proto__x: 1, toString: 2 })).toEqual({ constructor: ['Unknown field.'], __proto__x: ['Unknown field.'], toString: ['Unknown field.'] });
  });
});

describe('domain errors as HTTP answers', () => {
  it('gives each kind of refusal its status and keeps its body', () => {
    const body = { detail: 'No.', code: 'no' };
    const kinds = [[Invalid, 400], [Unauthenticated, 401], [Forbidden, 403], [NotFound, 404], [Conflict, 409], [Unavailable, 503]] as const;
    for (const [Kind, status] of kinds) expect(refusalAnswer(new Kind(body)), Kind.name).toEqual({ status, body });
    expect(refusalAnswer(fieldError('name', 'This field is required.'))).toEqual({ status: 400, body: { name: ['This field is required.'] } });
  });

  it('answers nothing for an error that is not a refusal (a fault, answered 500)', () => {
    expect(refusalAnswer(new Error('boom'))).toBeUndefined();
  });
});
