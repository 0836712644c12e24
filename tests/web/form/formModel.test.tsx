import { describe, expect, it } from 'vitest';
import companyAdministrator from '../../../schemas/api/company-administrator.json';
import groupSchema from '../../../schemas/entities/group.json';
import ldapSchema from '../../../schemas/settings/ldap-configuration.json';
import userSchema from '../../../schemas/entities/user.json';
import { bodyOf, changedBodyOf, formModelOf, initialValuesOf, type EntitySchema } from '../../../src/web/renderers/form/formSchema';
import { routeParams } from '../../../src/web/renderers/form/routeParams';
import { firstErrorByField, transformErrorsWith } from '../../../src/web/renderers/form/transformErrors';
import { formValidator } from '../../../src/web/renderers/form/validator';

const user = userSchema as unknown as EntitySchema;

describe('the form model of an entity schema', () => {
  it('keeps writable properties in x-order and turns x- hints into widgets', () => {
    const model = formModelOf(user);
    expect(model.fields).toEqual(['username', 'email', 'first_name', 'last_name', 'is_active', 'group_ids', 'password']);
    expect(model.uiSchema.password).toMatchObject({ 'ui:widget': 'password', 'ui:title': 'Password' });
    expect(model.uiSchema.group_ids).toMatchObject({ 'ui:widget': 'groups' });
    expect(model.uiSchema['ui:order']).toEqual([...model.fields, '*']);
  });

  it('leaves a write-only id list out of edit forms when the API answers nothing to fill it from', () => {
    const group = groupSchema as unknown as EntitySchema;
    expect(formModelOf(group, 'create').fields).toContain('user_ids');
    expect(formModelOf(group, 'create').uiSchema.user_ids).toMatchObject({ 'ui:widget': 'users', 'ui:title': 'Members' });
    expect(formModelOf(group, 'edit').fields).not.toContain('user_ids');
    expect(formModelOf(user, 'edit').fields).toContain('group_ids');
  });

  it('drops a constraint-only anyOf from what is rendered', () => {
    const model = formModelOf(user);
    expect((model.schema.properties?.email as Record<string, unknown>).anyOf).toBeUndefined();
  });

  it('prefixes required to the rules of schema-required fields, and not to secrets when editing', () => {
    const create = formModelOf(companyAdministrator as unknown as EntitySchema, 'create');
    expect(create.rules).toMatchObject({ username: 'required', password: 'required' });
    expect(create.schema.required).toEqual(['username', 'password']);
    const edit = formModelOf(companyAdministrator as unknown as EntitySchema, 'edit');
    expect(edit.rules.password).toBeUndefined();
    expect(edit.uiSchema.password).toMatchObject({ 'ui:placeholder': 'Leave empty to keep' });
  });

  it('asks a value of schema-required fields with nothing to start from, and still sends every one on an edit', () => {
    const ldap = formModelOf(ldapSchema as unknown as EntitySchema, 'edit');
    // A checkbox is present unchecked, a defaulted field starts with its default: neither must be filled in.
    for (const field of ['starttls', 'verify_certificate', 'ca_certificate', 'member_of_attribute']) expect(ldap.rules[field] ?? '', field).not.toMatch(/required/);
    for (const field of ['name', 'url', 'bind_dn', 'user_search_base']) expect(ldap.rules[field], field).toMatch(/required/);
    const loaded = { name: 'Corp', url: 'ldaps://dc', starttls: false, ca_certificate: '', bind_dn: 'cn=bind', user_search_base: 'dc=corp' };
    // StartTLS left off is sent as off, so the server's default (on) never replaces it.
    expect(changedBodyOf(ldap, { ...loaded, name: 'Corp HQ' }, loaded)).toMatchObject({ name: 'Corp HQ', starttls: false, ca_certificate: '' });
  });

  it('fills a write-only id list from the read-only list of objects and never pre-fills a secret', () => {
    const model = formModelOf(user, 'edit');
    expect(initialValuesOf(model, { id: 2, username: 'jane', name: 'Jane', groups: [{ id: 3, name: 'SOC' }], password: 'x' })).toEqual({ username: 'jane', group_ids: [3] });
  });

  it('sends an edit as the changed fields plus the required ones', () => {
    const model = formModelOf(user, 'edit');
    const initial = { username: 'jane', email: 'jane@example.com', group_ids: [3] };
    expect(changedBodyOf(model, { username: 'jane', email: 'jane@example.com', group_ids: [3, 4] }, initial)).toEqual({ username: 'jane', group_ids: [3, 4] });
  });

  it('sends emptied text as "" and leaves an empty secret out', () => {
    const model = formModelOf(user, 'edit');
    expect(bodyOf(model, { username: 'jane', first_name: undefined, password: '' }, { first_name: 'Jane' })).toEqual({ username: 'jane', first_name: '' });
  });
});

describe('schema errors', () => {
  it('are validated by the precompiled validator of the schema id and worded by the rule catalogue', () => {
    const model = formModelOf(user);
    const { errors } = formValidator.validateFormData({ username: 'has space', email: 'nope', group_ids: [0] }, model.schema, undefined, transformErrorsWith(model.labels));
    expect(firstErrorByField(errors)).toEqual({
      username: 'The Username field format is invalid.',
      email: 'The Email field must be a valid email.',
      group_ids: 'The Groups field must be 1 or more.',
    });
  });

  it('say a missing required property is required', () => {
    const model = formModelOf(user);
    const { errors } = formValidator.validateFormData({}, model.schema, undefined, transformErrorsWith(model.labels));
    expect(firstErrorByField(errors)).toEqual({ username: 'The Username field is required.' });
  });

  it('fall back to the default message for keywords without a rule', () => {
    const [error] = transformErrorsWith({ tags: 'Tags' })([{ name: 'uniqueItems', property: '.tags', message: 'must not have duplicate items', params: {}, stack: '', schemaPath: '' }]);
    expect(error.message).toBe('The Tags is not valid.');
  });

  it('do not change the form data (defaults are filled into a copy)', () => {
    const model = formModelOf(user);
    const data = { username: 'jane' };
    formValidator.validateFormData(data, model.schema);
    expect(data).toEqual({ username: 'jane' });
  });

  it('fail loudly for a schema codegen did not precompile', () => {
    expect(() => formValidator.validateFormData({}, { $id: 'cartograph:entities/nothing', type: 'object' })).toThrow(/No precompiled validator/);
  });
});

describe('route parameters', () => {
  it('are read from the current path by the route pattern', () => {
    expect(routeParams('/settings/user/{id}/edit', '/settings/user/7/edit')).toEqual({ id: '7' });
    expect(routeParams('/settings/user/{id}/edit', '/settings/user/create')).toEqual({});
    expect(routeParams('/dashboard/edit-chart/{dashboardId}/{id}', '/dashboard/edit-chart/a%20b/3')).toEqual({ dashboardId: 'a b', id: '3' });
  });
});
