import type { TableColumn } from './columns';

/** The cells of one body row, the same in the paged and the virtual table. */
export function TableCells<Row>({ columns, row, index }: { columns: readonly TableColumn<Row>[]; row: Row; index: number }) {
  return (
    <>
      {columns.map((column) => (
        <td key={column.id} className={`ui-table__td ui-table__cell--${column.align ?? 'start'}`}>
          {column.cell(row, index)}
        </td>
      ))}
    </>
  );
}

/** A row that opens something on click says so with its class (pointer cursor, hover) and its handler. */
export function rowClickProps<Row>(row: Row, onRowClick: ((row: Row) => void) | undefined) {
  return onRowClick ? { className: 'ui-table__row--clickable', onClick: () => onRowClick(row) } : {};
}
