import type { Key, ReactNode } from 'react';

export type SortDirection = 'asc' | 'desc';
/** The sorted column and its direction; null when the rows keep the server's (or given) order. */
export type SortState = { id: string; direction: SortDirection } | null;
export type CellAlign = 'start' | 'center' | 'end';
export type SortValue = string | number | boolean | null | undefined;

/** One column of a table, as configuration (columns are data, tested on their own). */
export type TableColumn<Row> = {
  id: string;
  header: ReactNode;
  /** What the cell shows. */
  cell: (row: Row, rowIndex: number) => ReactNode;
  /** The header can be clicked to sort by this column. */
  sortable?: boolean;
  /** The value client-side sorting compares (sortRows); server-sorted tables leave it out. */
  sortValue?: (row: Row) => SortValue;
  align?: CellAlign;
  /** CSS width of the column (`120px`, `20%`). */
  width?: string;
};

/** What every table (paged Table, VirtualTable) is given: the columns, the rows and how sorting is reported. */
export type TableBaseProps<Row> = {
  columns: readonly TableColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => Key;
  /** Names the table for screen readers (visually hidden caption). */
  caption: string;
  sort?: SortState;
  onSortChange?: (sort: SortState) => void;
  /** Shown in place of the rows when there are none. */
  empty?: ReactNode;
  onRowClick?: (row: Row) => void;
};

/** A header click cycles ascending → descending → unsorted; another column starts at ascending. */
export function nextSort(sort: SortState, columnId: string): SortState {
  if (!sort || sort.id !== columnId) return { id: columnId, direction: 'asc' };
  return sort.direction === 'asc' ? { id: columnId, direction: 'desc' } : null;
}

/** The aria-sort value of a header (screen readers announce the sorted column and its direction). */
export function ariaSort(sort: SortState, columnId: string): 'ascending' | 'descending' | 'none' {
  if (!sort || sort.id !== columnId) return 'none';
  return sort.direction === 'asc' ? 'ascending' : 'descending';
}

function compareValues(left: SortValue, right: SortValue): number {
  const leftMissing = left === null || left === undefined || left === '';
  const rightMissing = right === null || right === undefined || right === '';
  if (leftMissing || rightMissing) return leftMissing === rightMissing ? 0 : leftMissing ? 1 : -1;
  if (typeof left === 'number' && typeof right === 'number') return left - right;
  return String(left).localeCompare(String(right), undefined, { numeric: true, sensitivity: 'base' });
}

/**
 * Sorts rows in the browser by the sorted column's sortValue (stable; empty values last in both directions).
 * Rows are returned unchanged when nothing is sorted or the column has no sortValue.
 */
export function sortRows<Row>(rows: readonly Row[], columns: readonly TableColumn<Row>[], sort: SortState): Row[] {
  const column = sort ? columns.find((candidate) => candidate.id === sort.id) : undefined;
  if (!sort || !column?.sortValue) return [...rows];
  const value = column.sortValue;
  const sign = sort.direction === 'asc' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, key: value(row) }))
    .sort((left, right) => {
      const leftMissing = left.key === null || left.key === undefined || left.key === '';
      const rightMissing = right.key === null || right.key === undefined || right.key === '';
      if (leftMissing || rightMissing) return compareValues(left.key, right.key) || left.index - right.index;
      return sign * compareValues(left.key, right.key) || left.index - right.index;
    })
    .map((entry) => entry.row);
}

/** `asc` → `name`, `desc` → `-name`: the DRF-style `ordering` parameter of a sort. */
export const orderingOf = (sort: SortState): string | undefined => (sort ? `${sort.direction === 'desc' ? '-' : ''}${sort.id}` : undefined);

/** The reverse of orderingOf: `-name` → name descending. */
export function sortOfOrdering(ordering: string | undefined | null): SortState {
  if (!ordering) return null;
  return ordering.startsWith('-') ? { id: ordering.slice(1), direction: 'desc' } : { id: ordering, direction: 'asc' };
}
