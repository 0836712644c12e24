import type { SnapshotConnection } from '../../../core/connectionNames';
import type { TableColumn } from '../../ui';
import { fieldLabel, FieldValues } from './fieldValues';
import type { AssetRow, FieldMap } from './inventoryApi';
import { connectionNames, SourceBadges } from './sources';

/** The fields a list asks for: the shown columns, and the connections behind an Adapters column's badges. */
export function requestedFields(columns: string[]): string[] {
  return columns.includes('Adapters') && !columns.includes('Connections') ? [...columns, 'Connections'] : columns;
}

/** Columns from the chosen field keys; the Adapters column shows a badge per source, the Connections column their names. */
export function inventoryColumns(keys: string[], fieldMap: FieldMap, connections: readonly SnapshotConnection[] = []): TableColumn<AssetRow>[] {
  const cellOf = (key: string, row: AssetRow) => {
    if (key === 'Adapters') return <SourceBadges adapters={row.Adapters ?? []} connectionIds={row.Connections} connections={connections} />;
    if (key === 'Connections') return <FieldValues values={connectionNames(row.Connections, connections)} />;
    return <FieldValues values={row[key]} type={fieldMap[key]?.value_type} titles={fieldMap[key]?.value_titles} />;
  };
  return keys.map((key) => ({ id: key, header: fieldLabel(key, fieldMap[key]), sortable: true, cell: (row: AssetRow) => cellOf(key, row) }));
}
