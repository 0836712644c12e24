import { t } from '../../app/i18n/messages';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { propertyLabel, rulesRequire } from '../../../core/validation/index.js';
import { enumNamesUi } from './enumNames';
import { localizedSchema } from '../schema/localizedSchema';

type Property = RJSFSchema & {
  readOnly?: boolean;
  writeOnly?: boolean;
  'x-secret'?: true;
  'x-order'?: number;
  'x-group'?: string;
  'x-widget'?: string;
  'x-rules'?: string;
};
export type EntitySchema = RJSFSchema & { $id: string; properties?: Record<string, Property>; required?: string[]; 'x-resource'?: { path: string } };
export type FormMode = 'create' | 'edit';

/** Everything a form needs from an entity schema, derived once. */
export type FormModel = {
  schemaId: string;
  /** The schema RJSF renders: writable properties only, constraint-only `anyOf`s left out. */
  schema: RJSFSchema;
  uiSchema: UiSchema;
  /** The form fields in display order. */
  fields: string[];
  labels: Record<string, string>;
  /** Field → rule string (spec §5); schema-required fields that must hold a value start with `required`. */
  rules: Record<string, string>;
  /** The schema-required fields: an edit sends them even unchanged (the server fills what is left out by defaults). */
  sent: string[];
  /** Field → section name (`x-group`); fields without one sit in the unnamed first section. */
  groups: Record<string, string>;
  secrets: string[];
};

// An `anyOf` whose branches add constraints only (no type, no properties), such as "an email or empty", is kept for
// validation but not shown: RJSF would render it as a choice between options.
const constraintOnly = (branches: unknown): boolean =>
  Array.isArray(branches) && branches.every((branch) => typeof branch === 'object' && branch !== null && !('type' in branch) && !('properties' in branch));

const widgetFor: Record<string, string> = {
  text: 'text',
  textarea: 'textarea',
  password: 'password',
  select: 'select',
  multiselect: 'checkboxes',
  checkbox: 'checkbox',
  file: 'file',
  code: 'code',
  permissions: 'permissions',
  adapters: 'adapters',
  groups: 'groups',
};

// Write-only id lists without an `x-widget` that still have an obvious picker.
const idPickers: Record<string, string> = { user_ids: 'users', group_ids: 'groups' };

/**
 * The form view of an entity schema, its texts from the message files (localizedSchema): read-only properties
 * dropped, order from `x-order`, widgets from `x-secret` and `x-widget`, labels from the titles (a property without
 * one has its name's label), option labels from the enum's messages, rules from `x-rules`.
 * Before: `{ properties: { id: { readOnly: true }, username: { 'x-order': 1, 'x-rules': 'required|max:150' } } }`;
 * after: fields ['username'], rules { username: 'required|max:150' }.
 */
export function formModelOf(written: EntitySchema, mode: FormMode = 'create'): FormModel {
  const entity = localizedSchema(written);
  const all = entity.properties ?? {};
  // An edit cannot show a write-only `<name>_ids` list unless the API answers `<name>s` to fill it from: shown empty,
  // saving would replace the real list (a group's members). Such a field is left out of edit forms.
  const unfillable = (name: string, property: Property) => mode === 'edit' && property.writeOnly === true && name.endsWith('_ids') && !all[`${name.slice(0, -4)}s`];
  const entries = Object.entries(all).filter(([name, property]) => !property.readOnly && !unfillable(name, property));
  const ordered = entries
    .map(([name, property], index) => ({ name, property, order: property['x-order'] ?? Number.MAX_SAFE_INTEGER, index }))
    .sort((left, right) => left.order - right.order || left.index - right.index);
  const schemaRequired = new Set(entity.required ?? []);
  const properties: Record<string, RJSFSchema> = {};
  const uiSchema: UiSchema = { 'ui:order': [...ordered.map(({ name }) => name), '*'], 'ui:submitButtonOptions': { norender: true } };
  const labels: Record<string, string> = {};
  const rules: Record<string, string> = {};
  const groups: Record<string, string> = {};
  const secrets: string[] = [];
  for (const { name, property } of ordered) {
    const { anyOf, readOnly: _readOnly, writeOnly: _writeOnly, examples: _examples, ...rest } = property as Property & { examples?: unknown };
    properties[name] = (constraintOnly(anyOf) ? rest : { ...rest, ...(anyOf && { anyOf }) }) as RJSFSchema;
    labels[name] = propertyLabel(name, property);
    const secret = property['x-secret'] === true;
    if (secret) secrets.push(name);
    const widget = secret ? 'password' : property['x-widget'] ? widgetFor[property['x-widget']] : idPickers[name];
    uiSchema[name] = {
      'ui:title': labels[name],
      ...(widget && { 'ui:widget': widget }),
      ...(secret && mode === 'edit' && { 'ui:placeholder': t('renderers.leaveEmptyToKeep') }),
      ...enumNamesUi(property),
    };
    // Schema-required means present, which a form asks of the user only where nothing else gives a value: a checkbox
    // is present unchecked, and a property with a default starts with it (an empty CA certificate is a choice). A
    // secret is never sent back by the API, so editing without re-typing it keeps it: it is required on create only.
    const required = schemaRequired.has(name) && property.type !== 'boolean' && property.default === undefined && !(secret && mode === 'edit');
    const written = property['x-rules'];
    const ruleString = required && !rulesRequire(written) ? ['required', written].filter(Boolean).join('|') : written;
    if (ruleString) rules[name] = secret && mode === 'edit' ? ruleString.split('|').filter((rule) => rule.trim() !== 'required').join('|') : ruleString;
    if (property['x-group']) groups[name] = property['x-group'];
  }
  const required = ordered.map(({ name }) => name).filter((name) => rules[name] !== undefined && rulesRequire(rules[name]));
  const schema: RJSFSchema = { type: 'object', properties, ...(required.length && { required }), ...(entity.$id && { $id: entity.$id }) };
  for (const name of Object.keys(rules)) if (!rules[name]) delete rules[name];
  const sent = ordered.map(({ name }) => name).filter((name) => schemaRequired.has(name) && !(secrets.includes(name) && mode === 'edit'));
  return { schemaId: entity.$id, schema, uiSchema, fields: ordered.map(({ name }) => name), labels, rules, sent, groups, secrets };
}

/**
 * The form's starting values from an API answer: writable fields only; a write-only `<name>_ids` list is filled from
 * the read-only `<name>s` list of objects the API answers. Before: `{ id: 2, groups: [{ id: 3, name: 'SOC' }] }`;
 * after: `{ group_ids: [3] }`.
 */
export function initialValuesOf(model: FormModel, answer: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of model.fields) {
    if (field in answer && !model.secrets.includes(field)) values[field] = answer[field];
    const listed = field.endsWith('_ids') ? answer[`${field.slice(0, -4)}s`] : undefined;
    if (values[field] === undefined && Array.isArray(listed)) values[field] = listed.map((item) => (item as { id?: unknown }).id).filter((id) => id !== undefined);
  }
  return values;
}

/**
 * The body to send: form fields only. An empty secret is left out (the server keeps it); text the user emptied is sent
 * as "" so the server clears it, since RJSF reports an emptied input as undefined.
 */
export function bodyOf(model: FormModel, values: Record<string, unknown>, initial: Record<string, unknown> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of model.fields) {
    const value = values[field];
    const secret = model.secrets.includes(field);
    if ((value === undefined || value === null || value === '') && !secret && typeof initial[field] === 'string' && initial[field] !== '') body[field] = '';
    else if (value !== undefined && value !== null && !(secret && value === '')) body[field] = value;
  }
  return body;
}

/**
 * An edit's body: the fields that differ from what was loaded, plus the schema-required ones (PUT validates them).
 * The server keeps what is not sent, so an edit never rewrites fields the user did not touch (a built-in group's
 * permissions, say). Before: loaded `{ name: 'SOC', adapters: ['*'] }`, body `{ name: 'SOC', adapters: ['*'] }`;
 * after: `{ name: 'SOC' }` (name is required).
 */
export function changedBodyOf(model: FormModel, body: Record<string, unknown>, initial: Record<string, unknown>): Record<string, unknown> {
  const sent = new Set(model.sent);
  return Object.fromEntries(Object.entries(body).filter(([field, value]) => sent.has(field) || JSON.stringify(value) !== JSON.stringify(initial[field])));
}

/** The fields a form shows on screen, where their server messages are listed (a hidden widget's are not seen). */
export const shownFieldsOf = (model: FormModel): string[] => model.fields.filter((field) => (model.uiSchema[field] as { 'ui:widget'?: string } | undefined)?.['ui:widget'] !== 'hidden');
