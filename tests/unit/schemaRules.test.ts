import { describe, expect, it } from 'vitest';
import scannerSchema from '../../schemas/adapters/network-scanner/connection.schema.json';
import { propertyLabel, schemaRuleMessages } from '../../src/core/validation/index.js';

const schema = {
  properties: {
    name: { type: 'string', 'x-rules': 'required|max:10' },
    email: { type: 'string', title: 'Contact e-mail', 'x-rules': 'email' },
    group_ids: { type: 'array' },
  },
};

describe('the x-rules of a schema applied to a body', () => {
  it('answers the first failing rule of each property, labelled as the form labels it', async () => {
    expect(await schemaRuleMessages(schema, { name: '   ', email: 'not an address' })).toEqual({
      name: 'The Name field is required.',
      email: 'The Contact e-mail field must be a valid email.',
    });
    expect(await schemaRuleMessages(schema, { name: 'a name that is too long' })).toEqual({ name: expect.stringContaining('Name') });
    expect(await schemaRuleMessages(schema, { name: 'ok', email: 'ops@example.com' })).toEqual({});
  });

  it('checks only the properties a partial body sends', async () => {
    expect(await schemaRuleMessages(schema, { email: 'ops@example.com' }, { partial: true })).toEqual({});
    expect(await schemaRuleMessages(schema, { name: '' }, { partial: true })).toEqual({ name: 'The Name field is required.' });
  });

  it("applies an adapter form's own rule (the network scanner's targets)", async () => {
    expect(await schemaRuleMessages(scannerSchema, { targets: '10.0.0.0/24, 10.0.1.300' })).toEqual({ targets: expect.stringContaining('Targets') });
    expect(await schemaRuleMessages(scannerSchema, { targets: '10.0.0.0/24, 10.0.1.1-10.0.1.9' })).toEqual({});
  });

  it('labels a property by its title, else by its name, `_ids` lists by what they hold', () => {
    expect(propertyLabel('first_name', {})).toBe('First Name');
    expect(propertyLabel('group_ids', {})).toBe('Groups');
    expect(propertyLabel('email', { title: 'Contact e-mail' })).toBe('Contact e-mail');
  });
});
