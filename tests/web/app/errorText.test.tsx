import { describe, expect, it } from 'vitest';
import { errorText } from '../../../src/web/app/http';

describe('errorText (spec §8 order)', () => {
  it('prefers a string detail over everything else', () => {
    expect(errorText({ detail: 'Detail wins', message: 'm', data: { a: ['x'] }, errors: { b: 'y' }, error: 'e' })).toBe('Detail wins');
  });

  it('uses a string message when there is no string detail', () => {
    expect(errorText({ detail: { nested: true }, message: 'Message next', data: { a: ['x'] }, error: 'e' })).toBe('Message next');
  });

  it('lists the data object before the errors object', () => {
    expect(errorText({ data: { name: ['Required.'], port: ['Too big.', 'Not a number.'] }, errors: { other: 'x' } })).toBe('name: Required.\nport: Too big. Not a number.');
  });

  it('lists the errors object before a string error', () => {
    expect(errorText({ errors: { host: 'Unreachable' }, error: 'later' })).toBe('host: Unreachable');
  });

  it('uses a string error when nothing earlier applies', () => {
    expect(errorText({ error: 'Plain error' })).toBe('Plain error');
  });

  it('otherwise renders the whole body as a list without count and results', () => {
    expect(errorText({ count: 3, results: [], username: ['Taken.'], non_field_errors: ['Nope.'] })).toBe('username: Taken.\nnon_field_errors: Nope.');
  });

  it('falls back to "Unknown error"', () => {
    expect(errorText(null)).toBe('Unknown error');
    expect(errorText({})).toBe('Unknown error');
    expect(errorText({ count: 0, results: [] })).toBe('Unknown error');
    expect(errorText('')).toBe('Unknown error');
  });
});
