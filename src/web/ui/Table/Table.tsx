import { t } from '../../app/i18n/messages';
import { EmptyState } from '../EmptyState/EmptyState';
import { Spinner } from '../Spinner/Spinner';
import type { TableBaseProps } from './columns';
import { rowClickProps, TableCells } from './TableCells';
import { TableHead } from './TableHead';
import { useScrollShadows } from './useScrollShadows';
import { useRef } from 'react';
import './Table.css';

export type TableProps<Row> = TableBaseProps<Row> & {
  /** Rows are being fetched: a spinner row when there are none yet, dimmed rows otherwise. */
  loading?: boolean;
  className?: string;
};

/** A data table whose columns are a configuration array; sorting is reported to the parent (server or sortRows). */
export function Table<Row>({ columns, rows, rowKey, caption, sort = null, onSortChange, empty, loading = false, onRowClick, className }: TableProps<Row>) {
  const scroller = useRef<HTMLDivElement>(null);
  useScrollShadows(scroller);
  const placeholder = loading && rows.length === 0 ? <Spinner label={t('ui.loadingRows')} /> : rows.length === 0 ? (empty ?? <EmptyState />) : null;
  return (
    <div ref={scroller} className={`ui-table__scroll${className ? ` ${className}` : ''}`}>
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
              <tr key={rowKey(row, index)} {...rowClickProps(row, onRowClick)}>
                <TableCells columns={columns} row={row} index={index} />
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
