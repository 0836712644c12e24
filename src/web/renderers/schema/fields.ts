import { t } from '../../app/i18n/messages';
import { fieldLabel } from '../../../core/validation/index.js';
import type { EntitySchema, PropertySchema } from './entitySchema';

/** One property of an entity, with the name it has in the API and the title people read. */
export type SchemaField = { name: string; title: string; property: PropertySchema };

/**
 * The label of a property without a title: the spec's field-label rule (§3), the one the validation messages and
 * form labels use, so a field reads the same in a list, a detail page and a form.
 */
export const labelOf = fieldLabel;

export const fieldTitle = (name: string, property: PropertySchema): string => property.title ?? labelOf(name);

/** Properties by `x-order` (lower first); unordered ones follow in declaration order (schemas/README.md). */
export function orderedFields(schema: EntitySchema): SchemaField[] {
  const entries = Object.entries(schema.properties ?? {}).map(([name, property], index) => ({ name, property, index }));
  const rank = (entry: (typeof entries)[number]) => entry.property['x-order'] ?? Number.POSITIVE_INFINITY;
  return entries
    .sort((left, right) => rank(left) - rank(right) || left.index - right.index)
    .map(({ name, property }) => ({ name, title: fieldTitle(name, property), property }));
}

const typesOf = (property: PropertySchema): string[] => (Array.isArray(property.type) ? property.type : property.type ? [property.type] : []);
const isScalar = (property: PropertySchema) => typesOf(property).some((type) => ['string', 'integer', 'number', 'boolean'].includes(type));
const isListOfScalars = (property: PropertySchema) => typesOf(property).includes('array') && property.items !== undefined && isScalar(property.items);
/** How many columns a schema without `x-list` hints gets. */
export const fallbackColumnCount = 6;

/**
 * The generic list's columns: the properties marked `x-list`. A schema without any (the inventories) falls back to
 * its first readable, non-secret properties that hold a value or a list of values, so every entity lists something.
 */
export function listFields(schema: EntitySchema): SchemaField[] {
  const fields = orderedFields(schema);
  const marked = fields.filter((field) => field.property['x-list'] === true);
  if (marked.length > 0) return marked;
  return fields
    .filter(({ property }) => !property.writeOnly && !property['x-secret'] && (isScalar(property) || isListOfScalars(property)))
    .slice(0, fallbackColumnCount);
}

/** The detail page's fields: everything the API answers (write-only properties such as passwords are never read). */
export const detailFields = (schema: EntitySchema): SchemaField[] => orderedFields(schema).filter((field) => !field.property.writeOnly);

/** Detail fields in their `x-group` sections, in order of first appearance; ungrouped fields go under `Details`. */
export function groupedFields(fields: readonly SchemaField[], defaultGroup = t('renderers.details')): { group: string; fields: SchemaField[] }[] {
  const groups = new Map<string, SchemaField[]>();
  for (const field of fields) {
    const group = field.property['x-group'] ?? defaultGroup;
    groups.set(group, [...(groups.get(group) ?? []), field]);
  }
  return [...groups].map(([group, members]) => ({ group, fields: members }));
}

/**
 * The columns the server can sort by. The generic resource layer sorts by any property; hand-written (`custom`)
 * endpoints sort by `id` and their search fields only (users, groups, companies, domains), and the `ordering`
 * parameter accepts only `[a-z_]` names.
 */
export function sortableFields(schema: EntitySchema): Set<string> {
  const resource = schema['x-resource'];
  if (!resource) return new Set();
  const candidates = resource.custom ? ['id', ...(resource.search ?? [])] : Object.keys(schema.properties ?? {});
  return new Set(candidates.filter((name) => /^[a-z_]+$/.test(name) && name in (schema.properties ?? {})));
}

/** The plural heading of a list (English; a localized schema carries its own in `x-plural-title`). */
export { pluralTitle } from '../../../core/schemaMessages.js';
