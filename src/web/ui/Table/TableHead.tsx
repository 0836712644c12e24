import { ariaSort, nextSort, type SortState, type TableColumn } from './columns';

type TableHeadProps<Row> = {
  columns: readonly TableColumn<Row>[];
  sort: SortState;
  onSortChange?: (sort: SortState) => void;
  /** aria-rowindex of the header row, for virtualized tables. */
  rowIndex?: number;
};

const arrows = { ascending: '▲', descending: '▼', none: '↕' } as const;

/** The header row; a sortable header is a button inside the th, so it is reachable with Tab and pressed with Enter. */
export function TableHead<Row>({ columns, sort, onSortChange, rowIndex }: TableHeadProps<Row>) {
  return (
    <thead className="ui-table__head">
      <tr aria-rowindex={rowIndex}>
        {columns.map((column) => {
          const sortable = Boolean(column.sortable && onSortChange);
          const state = ariaSort(sort, column.id);
          return (
            <th key={column.id} scope="col" aria-sort={sortable ? state : undefined} className={`ui-table__th ui-table__cell--${column.align ?? 'start'}`} style={column.width ? { width: column.width } : undefined}>
              {sortable ? (
                <button type="button" className="ui-table__sort" onClick={() => onSortChange?.(nextSort(sort, column.id))}>
                  {column.header}
                  <span className={`ui-table__arrow${state === 'none' ? ' ui-table__arrow--idle' : ''}`} aria-hidden="true">{arrows[state]}</span>
                </button>
              ) : (
                column.header
              )}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}
