import { describe, expect, it } from 'vitest';
import { errorText, notificationText } from '../../../src/web/app/http';

describe('errorText (spec §8 order)', () => {
  it('prefers a string detail over everything else', () => {
    expect(errorText({ detail: 'Detail wins', message: 'm', data: { a: ['x'] }, errors: { b: 'y' }, error: 'e' })).toBe('Detail wins');
  });

  it('uses a string message when there is no string detail', () => {
    expect(errorText({ detail: { nested: true }, message: 'Message next', data: { a: ['x'] }, error: 'e' })).toBe('Message next');
  });

  it('lists the data object before the errors object', () => {
    expect(errorText({ data: { name: ['Required.'], port: ['Too big.', 'Not a number.'] }, errors: { other: 'x' } })).toBe('Name: Required.\nPort: Too big. Not a number.');
  });

  it('lists the errors object before a string error', () => {
    expect(errorText({ errors: { host: 'Unreachable' }, error: 'later' })).toBe('Host: Unreachable');
  });

  it('uses a string error when nothing earlier applies', () => {
    expect(errorText({ error: 'Plain error' })).toBe('Plain error');
  });

  it('otherwise renders the whole body as a list without count and results', () => {
    expect(errorText({ count: 3, results: [], username: ['Taken.'], non_field_errors: ['Nope.'] })).toBe('Username: Taken.\nNope.');
  });

  it('falls back to "Unknown error"', () => {
    expect(errorText(null)).toBe('Unknown error');
    expect(errorText({})).toBe('Unknown error');
    expect(errorText({ count: 0, results: [] })).toBe('Unknown error');
    expect(errorText('')).toBe('Unknown error');
  });

  it('names fields by their title, not their path in the body (issue 36)', () => {
    expect(errorText({ 'scope.query': ['Unknown field "Colour".'], time_zone: ['Not a time zone.'] })).toBe('Query: Unknown field "Colour".\nTime zone: Not a time zone.');
  });
});

describe('notificationText (issue 36: a message listed under its field is not repeated)', () => {
  const shown = (...fields: string[]) => (field: string) => fields.includes(field);

  it('says once to fix the highlighted fields when the form lists every message under its field', () => {
    expect(notificationText({ username: ['Taken.'], email: ['Not an address.'] }, shown('username', 'email'))).toBe('Fix the highlighted fields.');
  });

  it('still lists, by their titles, the messages of fields the form does not show', () => {
    expect(notificationText({ username: ['Taken.'], 'scope.query': ['Does not parse.'], non_field_errors: ['Locked.'] }, shown('username')))
      .toBe('Fix the highlighted fields.\nQuery: Does not parse.\nLocked.');
    expect(notificationText({ data: { host: ['Unreachable.'], port: ['Too big.'] } }, shown('port'))).toBe('Fix the highlighted fields.\nHost: Unreachable.');
  });

  it('is the error text when no field is shown or the answer is one text', () => {
    expect(notificationText({ username: ['Taken.'] }, shown())).toBe('Username: Taken.');
    expect(notificationText({ detail: 'Not found.' }, shown('detail'))).toBe('Not found.');
  });
});

