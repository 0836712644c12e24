import { propertyLabel } from './fieldLabel.js';
import { validateValue } from './validate.js';

type RuledProperty = { title?: unknown; 'x-rules'?: string; [keyword: string]: unknown };
/** The part of a JSON Schema the form rules read: top-level properties with their title and `x-rules`. */
export type RuledSchema = { properties?: Record<string, RuledProperty> };

/**
 * The messages of a schema's `x-rules` for a body, by property: the same rules and English messages the schema's form
 * shows (spec §5), so what the form refuses an API client cannot save either. With `partial` (a PATCH) only the
 * properties sent are checked. Before: `{ name: '   ' }` against `name: { 'x-rules': 'required|max:200' }`;
 * after: `{ name: 'The Name field is required.' }`.
 */
export async function schemaRuleMessages(schema: RuledSchema, body: Record<string, unknown>, options: { partial?: boolean } = {}): Promise<Record<string, string>> {
  const properties = schema.properties ?? {};
  const labels = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, propertyLabel(name, property)]));
  const messages: Record<string, string> = {};
  for (const [name, property] of Object.entries(properties)) {
    const rules = property['x-rules'];
    if (!rules || (options.partial && !(name in body))) continue;
    const message = await validateValue(body[name], rules, { field: labels[name]!, values: body, labels });
    if (message !== null) messages[name] = message;
  }
  return messages;
}
