import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { EmptyState } from '../EmptyState/EmptyState';
import type { TableBaseProps } from './columns';
import { rowClickProps, TableCells } from './TableCells';
import { TableHead } from './TableHead';
import { useScrollShadows } from './useScrollShadows';
import './Table.css';

export type VirtualTableProps<Row> = TableBaseProps<Row> & {
  /** Height of the scrolling area in pixels. */
  height?: number;
  /** Fixed height of one row in pixels (virtual rows are positioned by it). */
  rowHeight?: number;
  /** Rows rendered beyond the visible ones on each side, so fast scrolling shows no blank rows. */
  overscan?: number;
};

/**
 * A table for long lists (thousands of rows already in the browser): only the rows in view are in the DOM (TanStack
 * Virtual), spacer rows keep the scroll height, and aria-rowcount / aria-rowindex tell screen readers the real size.
 */
export function VirtualTable<Row>({ columns, rows, rowKey, caption, sort = null, onSortChange, empty, height = 480, rowHeight = 40, overscan = 8, onRowClick }: VirtualTableProps<Row>) {
  const scroller = useRef<HTMLDivElement>(null);
  useScrollShadows(scroller);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan,
    // A first guess of the viewport so the first render already shows rows (before the element is measured).
    initialRect: { width: 0, height },
  });
  const items = virtualizer.getVirtualItems();
  const before = items.length ? items[0].start : 0;
  const after = items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  return (
    <div ref={scroller} className="ui-table__scroll ui-table__scroll--virtual" style={{ height }} tabIndex={0} role="region" aria-label={caption}>
      <table className="ui-table" aria-rowcount={rows.length + 1}>
        <caption className="ui-visually-hidden">{caption}</caption>
        <TableHead columns={columns} sort={sort} onSortChange={onSortChange} rowIndex={1} />
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="ui-table__placeholder">{empty ?? <EmptyState />}</td>
            </tr>
          ) : null}
          {before > 0 ? <tr aria-hidden="true" style={{ height: before }} /> : null}
          {items.map((item) => {
            const row = rows[item.index];
            return (
              <tr key={rowKey(row, item.index)} aria-rowindex={item.index + 2} style={{ height: rowHeight }} {...rowClickProps(row, onRowClick)}>
                <TableCells columns={columns} row={row} index={item.index} />
              </tr>
            );
          })}
          {after > 0 ? <tr aria-hidden="true" style={{ height: after }} /> : null}
        </tbody>
      </table>
    </div>
  );
}
