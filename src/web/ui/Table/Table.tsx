import type { Key, ReactNode } from 'react';
import { EmptyState } from '../EmptyState/EmptyState';
import { Spinner } from '../Spinner/Spinner';
import type { SortState, TableColumn } from './columns';
import { TableHead } from './TableHead';
import './Table.css';

export type TableProps<Row> = {
  columns: readonly TableColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => Key;
  /** Names the table for screen readers (visually hidden caption). */
  caption: string;
  sort?: SortState;
  onSortChange?: (sort: SortState) => void;
  /** Shown in place of the rows when there are none. */
  empty?: ReactNode;
  /** Rows are being fetched: a spinner row when there are none yet, dimmed rows otherwise. */
  loading?: boolean;
  onRowClick?: (row: Row) => void;
  className?: string;
};

/** A data table whose columns are a configuration array; sorting is reported to the parent (server or sortRows). */
export function Table<Row>({ columns, rows, rowKey, caption, sort = null, onSortChange, empty, loading = false, onRowClick, className }: TableProps<Row>) {
  const placeholder = loading && rows.length === 0 ? <Spinner label="Loading rows" /> : rows.length === 0 ? (empty ?? <EmptyState />) : null;
  return (
    <div className={`ui-table__scroll${className ? ` ${className}` : ''}`}>
      <table className={`ui-table${loading && rows.length > 0 ? ' ui-table--stale' : ''}`} aria-busy={loading || undefined}>
        <caption className="ui-visually-hidden">{caption}</caption>
        <TableHead columns={columns} sort={sort} onSortChange={onSortChange} />
        <tbody>
          {placeholder ? (
            <tr>
              <td colSpan={columns.length} className="ui-table__placeholder">{placeholder}</td>
            </tr>
          ) : (
            rows.map((row, index) => (
              <tr key={rowKey(row, index)} className={onRowClick ? 'ui-table__row--clickable' : undefined} onClick={onRowClick ? () => onRowClick(row) : undefined}>
                {columns.map((column) => (
                  <td key={column.id} className={`ui-table__td ui-table__cell--${column.align ?? 'start'}`}>
                    {column.cell(row, index)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
