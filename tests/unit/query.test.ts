import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressRangeOf, parseQuery, printQuery, QuerySyntaxError, resolveDateMath, type QueryNode } from '../../src/core/query/index.js';

describe('the query language', () => {
  it('parses the coverage-gap queries analysts write', () => {
    expect(parseQuery('OS.Type = Windows AND NOT Groups = edr')).toEqual({
      kind: 'and',
      left: { kind: 'comparison', field: 'OS.Type', operator: '=', value: { kind: 'text', text: 'Windows', quoted: false } },
      right: { kind: 'not', operand: { kind: 'comparison', field: 'Groups', operator: '=', value: { kind: 'text', text: 'edr', quoted: false } } },
    });
    expect(parseQuery('Category = Server AND NOT LastSeen last now-15d/d')).toMatchObject({
      right: { kind: 'not', operand: { kind: 'last', field: 'LastSeen', since: { offset: { amount: -15, unit: 'd' }, roundTo: 'd' } } },
    });
    expect(parseQuery('Query is 12 AND InstalledSoftware.SoftwareName = *')).toEqual({
      kind: 'and', left: { kind: 'saved-query', id: 12 }, right: { kind: 'exists', field: 'InstalledSoftware.SoftwareName' },
    });
  });

  it('binds NOT tighter than AND and AND tighter than OR, and honours parentheses', () => {
    expect(printQuery(parseQuery('a = 1 OR b = 2 AND c = 3'))).toBe('a = 1 OR b = 2 AND c = 3');
    expect(parseQuery('a = 1 OR b = 2 AND c = 3')).toMatchObject({ kind: 'or', right: { kind: 'and' } });
    expect(parseQuery('(a = 1 OR b = 2) AND c = 3')).toMatchObject({ kind: 'and', left: { kind: 'or' } });
    expect(printQuery(parseQuery('NOT (a = 1 OR b = 2)'))).toBe('NOT (a = 1 OR b = 2)');
  });

  it('reads quoted text, regular expressions, numbers and keywords in any case', () => {
    expect(parseQuery('Hostname = "web 01"')).toMatchObject({ value: { kind: 'text', text: 'web 01', quoted: true } });
    expect(parseQuery('Hostname = /^web-\\d+$/i')).toMatchObject({ value: { kind: 'regex', pattern: '^web-\\d+$', flags: 'i' } });
    expect(parseQuery('AdapterCount >= 2')).toMatchObject({ operator: '>=', value: { kind: 'number', value: 2 } });
    expect(parseQuery('a = 1 and not b = 2 or c = 3')).toMatchObject({ kind: 'or' });
  });

  it.each([
    ['', 'The query is empty', 0],
    ['Hostname AND', 'Expected a field name', 12],
    ['Hostname in 3', 'Expected a list like [a, b]', 12],
    ['Tags in [a b]', 'Expected "," or "]"', 11],
    ['Tags in []', 'Expected a value', 9],
    ['web server', 'to search for a phrase, put it in quotes', 4],
    ['Hostname contains', 'Expected text after "Hostname contains"', 17],
    ['Hostname = ', 'Expected a value', 11],
    ['(a = 1', 'Expected ")"', 6],
    ['a = 1 b = 2', 'Expected AND or OR', 6],
    ['AND a = 1', 'Expected a condition or text to search before "AND"', 0],
    ['a = "open', 'Unterminated quoted text', 4],
    ['a = /(/', 'Invalid regular expression', 4],
    ['LastSeen last yesterday', 'Expected a date', 14],
    ['Query is abc', 'Expected a saved query id', 9],
    ['= 3', 'Expected a field name', 0],
  ])('reports %j as a syntax error with its position', (text, message, position) => {
    try {
      parseQuery(text);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(QuerySyntaxError);
      expect((error as QuerySyntaxError).message).toContain(message);
      expect((error as QuerySyntaxError).position).toBe(position);
    }
  });

  it('round-trips every tree through text', () => {
    const field = fc.constantFrom('Hostname', 'OS.Type', 'Specifics.crowdstrike.agent_version', 'LastSeen');
    const value = fc.oneof(
      fc.record({ kind: fc.constant('text' as const), text: fc.string({ minLength: 1, maxLength: 12 }), quoted: fc.constant(true) }),
      fc.record({ kind: fc.constant('text' as const), text: fc.stringMatching(/^[a-z][a-z0-9*-]{0,8}$/), quoted: fc.constant(false) }).filter((text) => !['and', 'or', 'not', 'last', 'query', 'is'].includes(text.text)),
      fc.record({ kind: fc.constant('number' as const), value: fc.integer({ min: -1000, max: 1000 }) }),
      fc.record({ kind: fc.constant('regex' as const), pattern: fc.stringMatching(/^[a-z0-9.^$]{1,8}$/), flags: fc.constantFrom('', 'i') }),
    );
    const leaf = fc.oneof(
      fc.record({ kind: fc.constant('comparison' as const), field, operator: fc.constantFrom('=', '!=', '>', '>=', '<', '<=' as const), value }),
      fc.record({ kind: fc.constant('exists' as const), field }),
      fc.record({ kind: fc.constant('saved-query' as const), id: fc.integer({ min: 1, max: 999 }) }),
      fc.record({ kind: fc.constant('in' as const), field, values: fc.array(value.filter((item) => item.kind !== 'regex'), { minLength: 1, maxLength: 3 }) }),
      fc.record({ kind: fc.constant('contains' as const), field, text: fc.string({ minLength: 1, maxLength: 12 }) }),
      fc.record({ kind: fc.constant('free-text' as const), text: fc.string({ minLength: 1, maxLength: 12 }), quoted: fc.boolean() }),
      fc.record({ kind: fc.constant('last' as const), field, since: fc.record({ offset: fc.option(fc.record({ amount: fc.integer({ min: -90, max: 90 }).filter((amount) => amount !== 0), unit: fc.constantFrom('d', 'h', 'w' as const) }), { nil: null }), roundTo: fc.option(fc.constantFrom('d', 'M' as const), { nil: null }) }) }),
    );
    const tree = fc.letrec<{ node: QueryNode }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf as fc.Arbitrary<QueryNode>,
        fc.record({ kind: fc.constant('and' as const), left: tie('node'), right: tie('node') }),
        fc.record({ kind: fc.constant('or' as const), left: tie('node'), right: tie('node') }),
        fc.record({ kind: fc.constant('not' as const), operand: tie('node') }),
      ),
    })).node;
    fc.assert(
      fc.property(tree, (node) => {
        // Printing normalizes `a AND (b AND c)` to `a AND b AND c`; the printed text must be a fixed point.
        const text = printQuery(node);
        expect(printQuery(parseQuery(text))).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('reads a bare term or quoted phrase as free text, alone or beside conditions', () => {
    expect(parseQuery('lt-0017')).toEqual({ kind: 'free-text', text: 'lt-0017', quoted: false });
    expect(parseQuery('"web server" OR 10.61.77.40')).toEqual({ kind: 'or', left: { kind: 'free-text', text: 'web server', quoted: true }, right: { kind: 'free-text', text: '10.61.77.40', quoted: false } });
    expect(parseQuery('lt-0017 AND OS.Type = Windows')).toMatchObject({ kind: 'and', left: { kind: 'free-text', text: 'lt-0017' }, right: { kind: 'comparison', field: 'OS.Type' } });
    expect(parseQuery('NOT Hostname')).toEqual({ kind: 'not', operand: { kind: 'free-text', text: 'Hostname', quoted: false } });
    expect(printQuery({ kind: 'free-text', text: 'and', quoted: false })).toBe('"and"');
  });

  it('reads lists, contains, exists and subnets, keeping the syntax written before them', () => {
    expect(parseQuery('IpAddresses in [10.1.0.0/16, "192.168.1.0/24", 3]')).toEqual({
      kind: 'in', field: 'IpAddresses',
      values: [{ kind: 'text', text: '10.1.0.0/16', quoted: false }, { kind: 'text', text: '192.168.1.0/24', quoted: true }, { kind: 'number', value: 3 }],
    });
    expect(parseQuery('Hostname contains web')).toEqual({ kind: 'contains', field: 'Hostname', text: 'web' });
    expect(parseQuery('NOT Groups exists')).toEqual({ kind: 'not', operand: { kind: 'exists', field: 'Groups' } });
    expect(parseQuery('IpAddresses = 10.61.0.0/16')).toMatchObject({ value: { kind: 'text', text: '10.61.0.0/16' } });
    expect(parseQuery('IpAddresses = fe80::/64')).toMatchObject({ value: { kind: 'text', text: 'fe80::/64' } });
    // Commas and brackets outside a list stay part of the value, as before lists existed.
    expect(parseQuery('Tags = a,b]')).toMatchObject({ value: { kind: 'text', text: 'a,b]' } });
    expect(printQuery(parseQuery('Tags in [a, "b,c", "x]"]'))).toBe('Tags in [a, "b,c", "x]"]');
  });

  it('reads subnets and address ranges, naming malformed ones', () => {
    expect(addressRangeOf('10.61.0.0/16')).toEqual({ kind: 'subnet', subnet: '10.61.0.0/16' });
    expect(addressRangeOf('2001:db8::/32')).toEqual({ kind: 'subnet', subnet: '2001:db8::/32' });
    expect(addressRangeOf('10.0.0.1-10.0.0.50')).toEqual({ kind: 'range', from: '10.0.0.1', to: '10.0.0.50' });
    expect(addressRangeOf('10.61.77.40')).toBeNull();
    expect(addressRangeOf('lt-0017')).toBeNull();
    expect(() => addressRangeOf('10.61.0.0/33')).toThrow('an IPv4 prefix is at most /32');
    expect(() => addressRangeOf('10.61.0/16')).toThrow('10.61.0 is not an IP address');
    expect(() => addressRangeOf('10.0.0.1-fe80::1')).toThrow('two addresses of one family');
  });

  it('resolves date math relative to now, rounding down', () => {
    const now = new Date('2026-11-22T14:30:00');
    expect(resolveDateMath({ offset: { amount: -15, unit: 'd' }, roundTo: 'd' }, now)).toEqual(new Date('2026-11-07T00:00:00'));
    expect(resolveDateMath({ offset: null, roundTo: null }, now)).toEqual(now);
  });
});
