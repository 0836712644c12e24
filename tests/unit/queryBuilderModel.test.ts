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

describe('the query builder model with free text, lists and subnets', () => {
  it('round-trips free text, subnets, ranges, lists and contains with the text', () => {
    const text = 'lt-0017 AND "web server" AND IpAddresses = 10.61.0.0/16 AND IpAddresses = 10.0.0.1-10.0.0.50 AND IpAddresses in [10.1.0.0/16, 192.168.1.0/24, fe80::/64] AND Hostname contains "db 01" AND Tags in [pci, "a b"]';
    const model = builderModelOf(text);
    expect(model).toEqual({
      connective: 'and',
      conditions: [
        { field: '', operator: 'search', value: 'lt-0017' },
        { field: '', operator: 'search', value: '"web server"' },
        { field: 'IpAddresses', operator: '=', value: '10.61.0.0/16' },
        { field: 'IpAddresses', operator: '=', value: '10.0.0.1-10.0.0.50' },
        { field: 'IpAddresses', operator: 'in', value: '10.1.0.0/16, 192.168.1.0/24, fe80::/64' },
        { field: 'Hostname', operator: 'contains', value: '"db 01"' },
        { field: 'Tags', operator: 'in', value: 'pci, "a b"' },
      ],
    });
    expect(builderText(model!)).toBe(text);
    expect(builderText(builderModelOf('10.61.0.0/16 OR fe80::/10')!)).toBe('10.61.0.0/16 OR fe80::/10');
  });

  it('makes a phrase typed without quotes one free-text condition, and a list of one value a list', () => {
    expect(builderText({ connective: 'or', conditions: [{ field: '', operator: 'search', value: 'web server' }, { field: 'Tags', operator: 'in', value: 'prod' }] })).toBe('"web server" OR Tags in [prod]');
    expect(() => builderText({ connective: 'and', conditions: [{ field: 'Tags', operator: 'in', value: 'a,' }] })).toThrow(/Expected a value/);
  });
});
