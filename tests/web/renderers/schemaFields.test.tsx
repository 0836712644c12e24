import { describe, expect, it } from 'vitest';
import deviceSchema from '../../../schemas/entities/device.json';
import userSchema from '../../../schemas/entities/user.json';
import type { EntitySchema } from '../../../src/web/renderers/schema/entitySchema';
import { loadEntitySchema, schemaFileKey } from '../../../src/web/renderers/schema/entitySchema';
import { detailFields, fallbackColumnCount, groupedFields, labelOf, listFields, orderedFields, pluralTitle, sortableFields } from '../../../src/web/renderers/schema/fields';
import { formatValue } from '../../../src/web/renderers/schema/formatValue';

const user = userSchema as unknown as EntitySchema;
const device = deviceSchema as unknown as EntitySchema;

describe('field titles', () => {
  it('come from the title, or from the name split on dots and underscores and capitalised (spec §3)', () => {
    expect(labelOf('first_name')).toBe('First Name');
    expect(labelOf('OS.Type')).toBe('OS Type');
    expect(labelOf('InstalledSoftware.SoftwareName')).toBe('InstalledSoftware SoftwareName');
    const [first] = orderedFields({ $id: 'x', properties: { base_url: { type: 'string', title: 'API host' } } });
    expect(first.title).toBe('API host');
  });

  it('make plural list headings', () => {
    expect(['User', 'Company', 'Saved query', 'Group', 'Address', 'Day'].map(pluralTitle)).toEqual(['Users', 'Companies', 'Saved queries', 'Groups', 'Addresses', 'Days']);
  });
});

describe('field order and selection', () => {
  it('orders by x-order, then unordered fields in declaration order', () => {
    const schema: EntitySchema = { $id: 'x', properties: { zeta: { type: 'string' }, beta: { type: 'string', 'x-order': 2 }, alpha: { type: 'string', 'x-order': 1 }, omega: { type: 'string' } } };
    expect(orderedFields(schema).map((field) => field.name)).toEqual(['alpha', 'beta', 'zeta', 'omega']);
  });

  it('lists the x-list properties of the user schema as columns', () => {
    expect(listFields(user).map((field) => field.name)).toEqual(['username', 'email', 'first_name', 'last_name', 'is_active']);
  });

  it('falls back to the first readable value fields when a schema has no x-list hints', () => {
    const fields = listFields(device).map((field) => field.name);
    expect(fields).toHaveLength(fallbackColumnCount);
    expect(fields.slice(0, 3)).toEqual(['Hostname', 'Domain', 'OS.Type']);
    const secretive: EntitySchema = { $id: 'x', properties: { token: { type: 'string', 'x-secret': true }, password: { type: 'string', writeOnly: true }, nested: { type: 'object' }, name: { type: 'string' } } };
    expect(listFields(secretive).map((field) => field.name)).toEqual(['name']);
  });

  it('shows every readable field on the detail page and never a write-only one', () => {
    const names = detailFields(user).map((field) => field.name);
    expect(names).toContain('groups');
    expect(names).toContain('is_ldap');
    expect(names).not.toContain('password');
    expect(names).not.toContain('group_ids');
    expect(names[0]).toBe('id');
  });

  it('groups detail fields by x-group in order of first appearance, the rest under Details', () => {
    const schema: EntitySchema = { $id: 'x', properties: { host: { 'x-group': 'Connection' }, note: {}, port: { 'x-group': 'Connection' }, proxy: { 'x-group': 'Network' } } };
    expect(groupedFields(orderedFields(schema)).map(({ group, fields }) => [group, fields.map((field) => field.name)])).toEqual([
      ['Connection', ['host', 'port']],
      ['Details', ['note']],
      ['Network', ['proxy']],
    ]);
  });
});

describe('sortable columns', () => {
  it('are id and the search fields for a hand-written endpoint (what users.ts accepts as ordering)', () => {
    expect([...sortableFields(user)].sort()).toEqual(['email', 'first_name', 'id', 'last_name', 'username']);
  });

  it('are every property of a generic resource whose name the ordering parameter accepts', () => {
    const schema: EntitySchema = { $id: 'x', 'x-resource': { path: '/things' }, properties: { id: {}, name: {}, 'OS.Type': {}, CamelCase: {} } };
    expect([...sortableFields(schema)]).toEqual(['id', 'name']);
  });

  it('are none for a schema without a resource', () => {
    expect(sortableFields(device).size).toBe(0);
  });
});

describe('formatValue', () => {
  it('shows nothing as a dash, booleans as Yes/No and lists joined by commas', () => {
    expect([undefined, null, ''].map((value) => formatValue(value))).toEqual(['-', '-', '-']);
    expect([formatValue(true), formatValue(false)]).toEqual(['Yes', 'No']);
    expect(formatValue(['10.0.4.17', '10.0.4.18'], { type: 'array', items: { type: 'string' } })).toBe('10.0.4.17, 10.0.4.18');
    expect(formatValue([], { type: 'array' })).toBe('-');
  });

  it('names objects by their name and masks secrets', () => {
    expect(formatValue([{ id: 2, name: 'Analysts' }, { id: 3, name: 'Admins' }], { type: 'array', items: { type: 'object' } })).toBe('Analysts, Admins');
    expect(formatValue('hunter2', { type: 'string', 'x-secret': true })).toBe('**********');
    expect(formatValue('', { type: 'string', 'x-secret': true })).toBe('-');
  });

  it('formats date-times with a two-digit day and long month, and year 0001 as a dash', () => {
    expect(formatValue('2026-11-01T09:30:00', { type: 'string', format: 'date-time' })).toBe('01 November 2026, 09:30');
    expect(formatValue('2026-11-01', { type: 'string', format: 'date' })).toBe('01 November 2026');
    expect(formatValue('0001-01-01T00:00:00', { type: 'string', format: 'date-time' })).toBe('-');
    expect(formatValue('not a date', { type: 'string', format: 'date-time' })).toBe('not a date');
  });
});

describe('schema loading', () => {
  it('maps a schema id to its file and loads it', async () => {
    expect(schemaFileKey('cartograph:entities/user')).toBe('../../../../schemas/entities/user.json');
    expect(schemaFileKey('cartograph:adapters/aws/connection')).toBeNull();
    const loaded = await loadEntitySchema('cartograph:entities/user');
    expect(loaded.$id).toBe('cartograph:entities/user');
    expect(loaded['x-resource']?.path).toBe('/users/users');
  });

  it('rejects an id that names no schema', async () => {
    await expect(loadEntitySchema('cartograph:entities/nothing-here')).rejects.toThrow('Unknown schema: cartograph:entities/nothing-here');
  });
});
