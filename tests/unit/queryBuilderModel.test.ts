import { describe, expect, it } from 'vitest';
import { builderModelOf, builderText, querySyntaxError } from '../../src/web/pages/inventories/queryBuilderModel';

describe('the query builder model', () => {
  it('round-trips an AND chain of conditions with the text', () => {
    const text = 'Hostname = web* AND OS.Type != Windows AND LastSeen last now-15d/d AND SerialNumber = * AND NOT Tags = *';
    const model = builderModelOf(text);
    expect(model).toEqual({
      connective: 'and',
      conditions: [
        { field: 'Hostname', operator: '=', value: 'web*' },
        { field: 'OS.Type', operator: '!=', value: 'Windows' },
        { field: 'LastSeen', operator: 'last', value: 'now-15d/d' },
        { field: 'SerialNumber', operator: 'exists', value: '' },
        { field: 'Tags', operator: 'not exists', value: '' },
      ],
    });
    expect(builderText(model!)).toBe(text);
  });

  it('keeps quoted values, regular expressions and numbers exact through the round trip', () => {
    const text = 'DisplayName = "Ada Lovelace" OR Hostname = /^db-\\d+$/i OR AdapterCount >= 2';
    expect(builderText(builderModelOf(text)!)).toBe(text);
  });

  it('leaves mixed AND/OR, parentheses and saved-query references to the text bar', () => {
    expect(builderModelOf('A = 1 AND (B = 2 OR C = 3)')).toBeNull();
    expect(builderModelOf('Query is 12')).toBeNull();
    expect(builderModelOf('A = ')).toBeNull();
  });

  it('skips unfinished lines and reports a value that does not parse', () => {
    expect(builderText({ connective: 'and', conditions: [{ field: 'Hostname', operator: '=', value: '' }] })).toBe('');
    expect(() => builderText({ connective: 'and', conditions: [{ field: 'LastSeen', operator: 'last', value: 'yesterday' }] })).toThrow(/now-15d\/d/);
  });

  it('points at the position of a syntax error', () => {
    expect(querySyntaxError('Hostname = web AND')).toMatchObject({ position: expect.any(Number) });
    expect(querySyntaxError('Hostname = web')).toBeNull();
    expect(querySyntaxError('')).toBeNull();
  });
});
