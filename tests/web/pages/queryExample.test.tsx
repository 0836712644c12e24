import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../src/core/query/index';
import type { FieldMap } from '../../../src/web/pages/inventories/inventoryApi';
import { queryExample } from '../../../src/web/pages/inventories/queryExample';

const field = (value_type: FieldMap[string]['value_type'], extra: Partial<FieldMap[string]> = {}) => ({ value_type, label: '', adapter: 'cartograph', ...extra });

describe('the query bar\'s example', () => {
  it('names the inventory\'s own fields, its default columns first', () => {
    const vulnerabilities: FieldMap = { Adapters: field('text'), Title: field('text'), CveId: field('text'), Score: field('double'), LastSeen: field('date') };
    expect(queryExample(vulnerabilities, ['Adapters', 'CveId', 'Title', 'Score', 'LastSeen'])).toBe('CveId = * AND LastSeen last now-15d/d');
    const devices: FieldMap = { Hostname: field('text'), 'OS.Type': field('text'), LastSeen: field('date') };
    expect(queryExample(devices, ['Adapters', 'Hostname', 'OS.Type', 'LastSeen'])).toBe('Hostname = * AND LastSeen last now-15d/d');
  });

  it('uses a coded value\'s first value, and a number when the inventory has no date', () => {
    const licenses: FieldMap = { Status: field('text', { value_titles: { active: 'Active' } }), SeatsFree: field('long') };
    expect(queryExample(licenses, ['Status', 'SeatsFree'])).toBe('Status = "active" AND SeatsFree > 0');
  });

  it('is a query the query language accepts', () => {
    for (const example of ['CveId = * AND LastSeen last now-15d/d', 'Status = "active" AND SeatsFree > 0']) expect(() => parseQuery(example)).not.toThrow();
    expect(queryExample({}, [])).toBe('');
  });
});
