import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { propertyLabel } from '../../src/core/validation/fieldLabel.js';

type SchemaNode = { title?: string; description?: string; type?: string | string[]; items?: SchemaNode; enum?: unknown[]; properties?: Record<string, SchemaNode>; examples?: unknown[]; default?: unknown };

/** `{type: 'array', items: {type: 'string'}}` → `list of string`: the type as a reader says it. */
function typeOf(node: SchemaNode): string {
  if (node.enum) return `one of ${node.enum.map((value) => `\`${String(value)}\``).join(', ')}`;
  if (node.type === 'array') return `list of ${node.items ? typeOf(node.items) : 'values'}`;
  if (Array.isArray(node.type)) return node.type.join(' or ');
  return node.type ?? (node.properties ? 'object' : 'value');
}

// A table cell holds one line: pipes would end the cell, line breaks the row.
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** One row per property, nested objects' properties under their parent's path (`address.city`). */
function propertyRows(properties: Record<string, SchemaNode>, prefix = ''): string[] {
  return Object.entries(properties).flatMap(([name, node]) => {
    const path = `${prefix}${name}`;
    const example = node.examples?.length ? ` Example: \`${cell(JSON.stringify(node.examples[0]))}\`.` : '';
    const row = `| ${cell(propertyLabel(name, node))} | \`${cell(path)}\` | ${cell(typeOf(node))} | ${cell(node.description ?? '')}${example} |`;
    return [row, ...(node.properties ? propertyRows(node.properties, `${path}.`) : [])];
  });
}

/** The Markdown reference of every schema in a folder: a section per schema, a table row per field. */
export function schemaReference(folder: string, heading: string, intro: string): string {
  const sections = readdirSync(folder)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => {
      const schema = JSON.parse(readFileSync(join(folder, file), 'utf8')) as SchemaNode;
      const name = file.replace(/\.json$/, '');
      return [
        `## ${schema.title ?? propertyLabel(name, {})}`,
        '',
        `\`${name}\`${schema.description ? `: ${schema.description}` : ''}`,
        '',
        '| Field | Key | Type | Description |',
        '|---|---|---|---|',
        ...propertyRows(schema.properties ?? {}),
        '',
      ].join('\n');
    });
  return [`# ${heading}`, '', intro, '', ...sections].join('\n');
}
