import { describe, expect, it } from 'vitest';
import { Invalid } from '../../src/server/errors.js';
import { orderByClause } from '../../src/server/http/pagination.js';

describe('ordering', () => {
  const columns = { name: 'lower(name)', id: 'id' };

  it('orders by a listed column, descending with a leading minus', () => {
    expect(orderByClause('-name', columns, 'id')).toBe('lower(name) desc, id');
    expect(orderByClause(undefined, columns, 'id')).toBe('id');
  });

  it('refuses names that are not its own columns, prototype keys included', () => {
    for (const ordering of ['colour', '__proto__', '-__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const refusal = (() => {
        try {
          return orderByClause(ordering, columns, 'id');
        } catch (error) {
          return error;
        }
      })();
      expect(refusal, ordering).toBeInstanceOf(Invalid);
      expect((refusal as Invalid).body, ordering).toEqual({ ordering: [`Ordering by "${ordering.replace(/^-/, '')}" is not supported.`] });
    }
  });
});
