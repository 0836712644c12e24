import { getDefaultFormState, type RJSFSchema, type UiSchema } from '@rjsf/utils';
import { validateValue } from '../../../../core/validation/index.js';
import { enumNamesUi } from '../../../renderers/form/enumNames';
import { formModelOf, type EntitySchema, type FormModel, type FormMode } from '../../../renderers/form/formSchema';
import { localizedSchema } from '../../../renderers/schema/localizedSchema';
import { connectionValidator, messagesOf, pathKey } from './connectionValidator';
import type { SchemaNode } from './schemaCheck';

/** What the API answers in place of a stored secret; sending it back keeps the secret. */
export const maskedSecret = '**********';

export type ConnectionValues = Record<string, unknown>;

/** An adapter's connection form: the renderer's model of its top level, plus what nested objects and oneOf branches need. */
export type ConnectionFormModel = FormModel & {
  /** The adapter's connection schema as written: every check runs against it. */
  connectionSchema: SchemaNode;
  /** RJSF control id (`root_auth_client_id`) → property path (`['auth', 'client_id']`), over every branch. */
  pathsById: Map<string, string[]>;
  /** Paths of every `x-secret` property, nested ones included. */
  secretPaths: string[][];
};

const widgetFor: Record<string, string> = { textarea: 'textarea', code: 'code', file: 'file', multiselect: 'checkboxes', select: 'select', checkbox: 'checkbox', password: 'secret', 'exported-from': 'exportedFrom' };

/** The uiSchema of one property and everything under it: secrets get the secret widget, oneOf discriminators are hidden. */
function uiOf(node: SchemaNode): UiSchema {
  const ui: UiSchema = {};
  // A `const` property names its oneOf branch (auth_type): the branch selector already shows that choice.
  if ('const' in node) ui['ui:widget'] = 'hidden';
  else if (node['x-secret']) ui['ui:widget'] = 'secret';
  else if (node['x-widget'] && widgetFor[node['x-widget']]) ui['ui:widget'] = widgetFor[node['x-widget']];
  // A string map (a column mapping) is edited as key and value rows.
  if (node.type === 'object' && !node.properties && typeof node.additionalProperties === 'object') ui['ui:field'] = 'keyValue';
  Object.assign(ui, enumNamesUi(node as Parameters<typeof enumNamesUi>[0]));
  for (const [name, child] of Object.entries(node.properties ?? {})) ui[name] = uiOf(child);
  if (node.oneOf) {
    ui.oneOf = node.oneOf.map(uiOf);
    // The branch selector is labelled by what the branches differ in ("Authentication method"), not the object's title.
    const discriminator = Object.values(node.oneOf[0]?.properties ?? {}).find((property) => 'const' in property && typeof property.title === 'string');
    if (discriminator) ui['ui:title'] = discriminator.title;
  }
  if (node.items) ui.items = uiOf(node.items);
  return ui;
}

function walkPaths(node: SchemaNode, path: string[], visit: (path: string[], node: SchemaNode) => void): void {
  visit(path, node);
  for (const [name, child] of Object.entries(node.properties ?? {})) walkPaths(child, [...path, name], visit);
  for (const branch of node.oneOf ?? []) for (const [name, child] of Object.entries(branch.properties ?? {})) walkPaths(child, [...path, name], visit);
}

/**
 * The form model of an adapter's connection schema, its texts from the message files (localizedSchema). The top
 * level comes from the generic renderer (x-order, x-group, labels, x-rules, secrets as passwords); nested objects keep
 * their schema, with secrets and discriminators marked.
 */
export function connectionFormModel(writtenSchema: SchemaNode, mode: FormMode): ConnectionFormModel {
  const connectionSchema = localizedSchema(writtenSchema);
  const base = formModelOf(connectionSchema as unknown as EntitySchema, mode);
  const uiSchema: UiSchema = { ...base.uiSchema };
  for (const [name, property] of Object.entries(connectionSchema.properties ?? {})) {
    uiSchema[name] = { ...(uiSchema[name] as UiSchema), ...uiOf(property) };
  }
  const pathsById = new Map<string, string[]>();
  const secretPaths: string[][] = [];
  walkPaths(connectionSchema, [], (path, node) => {
    if (!path.length) return;
    pathsById.set(['root', ...path].join('_'), path);
    if (node['x-secret']) secretPaths.push(path);
  });
  return { ...base, uiSchema, connectionSchema, pathsById, secretPaths };
}

/** The values with the schema's defaults filled in (first oneOf branch with its discriminator, verify TLS on, …). */
export function withDefaults(model: ConnectionFormModel, values: ConnectionValues): ConnectionValues {
  return getDefaultFormState(connectionValidator, model.schema as RJSFSchema, values, model.schema as RJSFSchema) as ConnectionValues;
}

/** The options of a connection as the API answers them, as form values. */
export function valuesOfOptions(options: readonly { name: string; typed_value: unknown }[]): ConnectionValues {
  return Object.fromEntries(options.map((option) => [option.name, option.typed_value]));
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/**
 * The form values as `option_connections`: empty values left out (the schema's defaults apply), a masked secret
 * sent back as it came so the server keeps the stored one.
 * Before: `{ base_url: 'https://x', proxy: '', auth: { auth_type: 'api_token', token: '**********' } }`;
 * after: `[{ name: 'base_url', … }, { name: 'auth', typed_value: { auth_type: 'api_token', token: '**********' } }]`.
 */
export function optionsOfValues(values: ConnectionValues): { name: string; typed_value: unknown }[] {
  const prune = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    return Object.fromEntries(Object.entries(value).filter(([, item]) => !isEmpty(item)).map(([name, item]) => [name, prune(item)]));
  };
  return Object.entries(values).filter(([, value]) => !isEmpty(value)).map(([name, value]) => ({ name, typed_value: prune(value) }));
}

/** The value at a path of nested values. */
export function valueAt(values: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((node, segment) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[segment] : undefined), values);
}

/**
 * Every client-side message of the settings, by path: a top-level field's rule string (x-rules, such as
 * scanner_target) first, then the connection schema's checks on the values that would be sent.
 */
export async function settingsMessages(model: ConnectionFormModel, values: ConnectionValues): Promise<Record<string, string>> {
  const sent = Object.fromEntries(optionsOfValues(values).map((option) => [option.name, option.typed_value]));
  const messages: Record<string, string> = {};
  for (const [field, rules] of Object.entries(model.rules)) {
    const message = await validateValue(values[field], rules, { field: model.labels[field] ?? field, values, labels: model.labels });
    if (message) messages[field] = message;
  }
  for (const [key, message] of Object.entries(messagesOf(model.connectionSchema, sent))) if (!(key in messages)) messages[key] = message;
  return messages;
}

/** The path key of a control id, for the fields RJSF reports on blur and change. */
export const pathOfId = (model: ConnectionFormModel, id: string): string | undefined => {
  const path = model.pathsById.get(id);
  return path ? pathKey(path) : undefined;
};
