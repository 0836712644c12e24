import { Badge } from '../../ui/Badge/Badge';
import type { TableColumn } from '../../ui/Table/columns';
import type { EntitySchema } from '../schema/entitySchema';
import { listFields, sortableFields, type SchemaField } from '../schema/fields';
import { emptyText, formatValue } from '../schema/formatValue';
import { hrefOf } from './entityRoutes';

export type Row = Record<string, unknown>;

function cellOf(field: SchemaField, row: Row) {
  const value = row[field.name];
  // Booleans read faster as badges; the text still says Yes or No for screen readers.
  if (typeof value === 'boolean') return <Badge tone={value ? 'success' : 'neutral'}>{formatValue(value)}</Badge>;
  return formatValue(value, field.property);
}

const isNumeric = (field: SchemaField) => [field.property.type].flat().some((type) => type === 'integer' || type === 'number');

/**
 * The generic list's columns for a schema: its `x-list` fields (or the fallback), sortable where the server sorts,
 * numbers right-aligned, and the first column linking to the row's page when there is one.
 */
export function listColumns(schema: EntitySchema, rowLink?: ((row: Row) => string | null) | null): TableColumn<Row>[] {
  const sortable = sortableFields(schema);
  return listFields(schema).map((field, index) => ({
    id: field.name,
    header: field.title,
    sortable: sortable.has(field.name),
    align: isNumeric(field) ? 'end' : 'start',
    cell: (row: Row) => {
      const content = cellOf(field, row);
      const link = index === 0 && rowLink ? rowLink(row) : null;
      return link ? <a href={hrefOf(link)}>{content === emptyText ? `#${String(row.id ?? '')}` : content}</a> : content;
    },
  }));
}

/** A row's key: its id when it has one (every resource row does), otherwise its position. */
export const rowKeyOf = (row: Row, index: number): string | number => (typeof row.id === 'string' || typeof row.id === 'number' ? row.id : index);
