// Only the label helper: codegen runs this before src/generated exists, which the rest of validation imports.
import { propertyLabel } from './validation/fieldLabel.js';

// The texts a schema puts on screen (its titles, descriptions, `x-group` section names, enum option labels, and the
// label a property without a title gets from its name) are messages like any other: codegen writes the English of
// every rendered schema into the en-US message file, and the console shows the message of the current locale. Both
// walk the schema with `translateSchema`, so the keys codegen writes are exactly the keys the console asks for.

/** Every message key of a schema text starts with this. */
export const schemaMessagePrefix = 'schema.';

/**
 * What a text is to its node: its title, its description, one option of its enum, or at the root a section name or
 * the plural list heading of an entity served as a resource.
 */
export type SchemaTextFacet = 'title' | 'description' | 'plural' | `enum.${string}` | `group.${string}`;

type SchemaNode = { [keyword: string]: unknown };
export type SchemaDocument = SchemaNode & { $id: string };
/** Answers the text of a key; `english` is the schema's own text, for a key the message file does not hold. */
export type Translate = (key: string, english: string) => string;

/**
 * A translated enum node carries its option labels under this keyword, by value (`{ "ldaps": "LDAPS" }`). It exists
 * only in the console's in-memory copy of a schema (schema files never hold it), where the form renderer turns it
 * into RJSF's `ui:enumNames`.
 */
export const enumLabelsKeyword = 'x-enum-labels';
/** The schema files' own keyword for the English display names of enum values (schemas/README.md). */
export const enumTitlesKeyword = 'x-enum-titles';
/** Likewise, the list heading of a translated entity schema with `x-resource` (its English: the title's plural). */
export const pluralTitleKeyword = 'x-plural-title';

/** The English plural of a title. Before: `User`, `Company`, `Saved query`; after: `Users`, `Companies`, `Saved queries`. */
export function pluralTitle(title: string): string {
  if (/[^aeiou]y$/i.test(title)) return `${title.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(title)) return `${title}es`;
  return `${title}s`;
}

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The message key of one text of a schema: the schema's `$id` without `cartograph:`, then the JSON pointer of the
 * node holding the text, then what the text is. Before: (`cartograph:entities/user`, `/properties/username`,
 * `title`); after: `schema.entities/user#/properties/username.title`.
 */
export function schemaMessageKey(schemaId: string, pointer: string, facet: SchemaTextFacet): string {
  return `${schemaMessagePrefix}${schemaId.replace(/^cartograph:/, '')}#${pointer}.${facet}`;
}

const isNode = (value: unknown): value is SchemaNode => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A copy of a schema whose visible texts are replaced by `translate(key, english)`. A property without a title is
 * given one (its name's label, `first_name` → "First Name"; not a `const` discriminator, which is never a field); an
 * enum gets its option labels under `x-enum-labels` (English: the schema's `x-enum-titles`, else the value).
 * Nested properties, array items, `oneOf` / `anyOf` branches and map values are walked too; keywords that carry no
 * text (`x-rules`, `default`, `examples`, ...) are copied as they are.
 */
export function translateSchema<Schema extends SchemaDocument>(schema: Schema, translate: Translate): Schema {
  const key = (pointer: string, facet: SchemaTextFacet) => schemaMessageKey(schema.$id, pointer, facet);
  const visit = (node: SchemaNode, pointer: string, propertyName?: string): SchemaNode => {
    const copy: SchemaNode = { ...node };
    // A property fixed to one value (a oneOf branch's discriminator) is never shown as a field: it is not given a title.
    const labelled = propertyName !== undefined && !('const' in node);
    const title = typeof node.title === 'string' ? node.title : labelled ? propertyLabel(propertyName, {}) : undefined;
    if (title !== undefined) copy.title = translate(key(pointer, 'title'), title);
    if (pointer === '' && title !== undefined && isNode(node['x-resource'])) copy[pluralTitleKeyword] = translate(key('', 'plural'), pluralTitle(title));
    if (typeof node.description === 'string') copy.description = translate(key(pointer, 'description'), node.description);
    // Section names are one per schema, not one per property, so every field of a section gets the same translation.
    if (typeof node['x-group'] === 'string') copy['x-group'] = translate(key('', `group.${node['x-group']}`), node['x-group']);
    // An option's English is its display name from `x-enum-titles`, else the value itself; a text field without an
    // enum may name its known values there too (a key algorithm's `rsa` is "RSA"), and other values show as they are.
    const displayNames = isNode(node[enumTitlesKeyword]) ? (node[enumTitlesKeyword] as Record<string, string>) : {};
    if (Array.isArray(node.enum) || Object.keys(displayNames).length) {
      const values = (Array.isArray(node.enum) ? node.enum : []).filter((value) => ['string', 'number', 'boolean'].includes(typeof value)).map(String);
      const options = [...new Set([...values, ...Object.keys(displayNames)])];
      copy[enumLabelsKeyword] = Object.fromEntries(options.map((value) => [value, translate(key(pointer, `enum.${value}`), displayNames[value] ?? value)]));
    }
    if (isNode(node.properties)) {
      copy.properties = Object.fromEntries(
        Object.entries(node.properties).map(([name, child]) => [name, isNode(child) ? visit(child, `${pointer}/properties/${escapePointer(name)}`, name) : child]),
      );
    }
    if (isNode(node.items)) copy.items = visit(node.items, `${pointer}/items`);
    if (isNode(node.additionalProperties)) copy.additionalProperties = visit(node.additionalProperties, `${pointer}/additionalProperties`);
    for (const branches of ['oneOf', 'anyOf'] as const) {
      const list = node[branches];
      if (Array.isArray(list)) copy[branches] = list.map((branch, index) => (isNode(branch) ? visit(branch, `${pointer}/${branches}/${index}`) : branch));
    }
    return copy;
  };
  return visit(schema, '') as Schema;
}

/** The English message of every visible text of a schema, by key (what codegen writes into the en-US file). */
export function schemaMessagesOf(schema: SchemaDocument): Record<string, string> {
  const messages: Record<string, string> = {};
  translateSchema(schema, (key, english) => {
    messages[key] = english;
    return english;
  });
  return messages;
}
