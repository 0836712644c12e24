import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { nextSort, orderingOf, sortOfOrdering, sortRows, type TableColumn } from './columns';
import { Table } from './Table';
import { VirtualTable } from './VirtualTable';
import { giveVirtualTablesHeight } from '../../../../tests/web/layout';

type Person = { id: number; name: string; age: number | null };
const people: Person[] = [
  { id: 1, name: 'Charlie', age: 30 },
  { id: 2, name: 'alice', age: null },
  { id: 3, name: 'Bob', age: 25 },
];
const columns: TableColumn<Person>[] = [
  { id: 'name', header: 'Name', cell: (row) => row.name, sortable: true, sortValue: (row) => row.name },
  { id: 'age', header: 'Age', cell: (row) => row.age ?? '-', sortable: true, sortValue: (row) => row.age, align: 'end' },
  { id: 'id', header: 'Id', cell: (row) => row.id },
];

describe('sorting helpers', () => {
  it('cycle a column ascending, descending, then unsorted; another column starts ascending', () => {
    const first = nextSort(null, 'name');
    expect(first).toEqual({ id: 'name', direction: 'asc' });
    const second = nextSort(first, 'name');
    expect(second).toEqual({ id: 'name', direction: 'desc' });
    expect(nextSort(second, 'name')).toBeNull();
    expect(nextSort(second, 'age')).toEqual({ id: 'age', direction: 'asc' });
  });

  it('sort rows case-insensitively, keep empty values last in both directions and leave the input alone', () => {
    expect(sortRows(people, columns, { id: 'name', direction: 'asc' }).map((row) => row.name)).toEqual(['alice', 'Bob', 'Charlie']);
    expect(sortRows(people, columns, { id: 'age', direction: 'asc' }).map((row) => row.id)).toEqual([3, 1, 2]);
    expect(sortRows(people, columns, { id: 'age', direction: 'desc' }).map((row) => row.id)).toEqual([1, 3, 2]);
    expect(people.map((row) => row.id)).toEqual([1, 2, 3]);
  });

  it('keep the order when nothing is sorted or the column has no sort value', () => {
    expect(sortRows(people, columns, null)).toEqual(people);
    expect(sortRows(people, columns, { id: 'id', direction: 'desc' })).toEqual(people);
  });

  it('turn a sort into the ordering parameter and back', () => {
    expect(orderingOf({ id: 'username', direction: 'desc' })).toBe('-username');
    expect(orderingOf({ id: 'username', direction: 'asc' })).toBe('username');
    expect(orderingOf(null)).toBeUndefined();
    expect(sortOfOrdering('-username')).toEqual({ id: 'username', direction: 'desc' });
    expect(sortOfOrdering('')).toBeNull();
  });
});

describe('Table', () => {
  it('renders the configured columns and one row per item, named by its caption', () => {
    render(<Table caption="People" columns={columns} rows={people} rowKey={(row) => row.id} />);
    const table = screen.getByRole('table', { name: 'People' });
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent?.replace(/[▲▼↕]/g, ''))).toEqual(['Name', 'Age', 'Id']);
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    expect(within(table).getByText('Charlie')).toBeTruthy();
  });

  it('reports the next sort when a sortable header is pressed and marks the sorted column', () => {
    const onSortChange = vi.fn();
    render(<Table caption="People" columns={columns} rows={people} rowKey={(row) => row.id} sort={{ id: 'name', direction: 'asc' }} onSortChange={onSortChange} />);
    const nameHeader = screen.getByRole('columnheader', { name: /Name/ });
    expect(nameHeader.getAttribute('aria-sort')).toBe('ascending');
    expect(screen.getByRole('columnheader', { name: /Age/ }).getAttribute('aria-sort')).toBe('none');
    fireEvent.click(within(nameHeader).getByRole('button'));
    expect(onSortChange).toHaveBeenCalledWith({ id: 'name', direction: 'desc' });
  });

  it('has no sort buttons when nobody listens for sorting, nor on unsortable columns', () => {
    const { rerender } = render(<Table caption="People" columns={columns} rows={people} rowKey={(row) => row.id} />);
    expect(screen.queryAllByRole('button')).toHaveLength(0);
    rerender(<Table caption="People" columns={columns} rows={people} rowKey={(row) => row.id} onSortChange={() => {}} />);
    expect(screen.getAllByRole('button')).toHaveLength(2);
  });

  it('shows the empty state when there are no rows', () => {
    const { rerender } = render(<Table caption="People" columns={columns} rows={[]} rowKey={(row) => row.id} />);
    expect(screen.getByText('No data found')).toBeTruthy();
    rerender(<Table caption="People" columns={columns} rows={[]} rowKey={(row) => row.id} empty="Nobody here" />);
    expect(screen.getByText('Nobody here')).toBeTruthy();
  });

  it('shows a spinner while the first rows load and marks the table busy', () => {
    render(<Table caption="People" columns={columns} rows={[]} rowKey={(row) => row.id} loading />);
    expect(screen.getByRole('status').textContent).toBe('Loading rows');
    expect(screen.getByRole('table').getAttribute('aria-busy')).toBe('true');
  });

  it('reports a click on a row', () => {
    const onRowClick = vi.fn();
    render(<Table caption="People" columns={columns} rows={people} rowKey={(row) => row.id} onRowClick={onRowClick} />);
    fireEvent.click(screen.getByText('Bob'));
    expect(onRowClick).toHaveBeenCalledWith(people[2]);
  });
});

describe('VirtualTable', () => {
  giveVirtualTablesHeight();

  const many: Person[] = Array.from({ length: 5000 }, (_, index) => ({ id: index + 1, name: `Person ${index + 1}`, age: index % 90 }));

  it('puts only a window of a long list in the DOM and tells screen readers the real size', () => {
    render(<VirtualTable caption="Many people" columns={columns} rows={many} rowKey={(row) => row.id} height={400} rowHeight={40} />);
    const table = screen.getByRole('table', { name: 'Many people' });
    expect(table.getAttribute('aria-rowcount')).toBe('5001');
    const bodyRows = table.querySelectorAll('tbody tr[aria-rowindex]');
    expect(bodyRows.length).toBeGreaterThan(0);
    expect(bodyRows.length).toBeLessThan(100);
    expect(bodyRows[0].getAttribute('aria-rowindex')).toBe('2');
    expect(screen.getByText('Person 1')).toBeTruthy();
    expect(screen.queryByText('Person 5000')).toBeNull();
  });

  it('shows the empty state for an empty list', () => {
    render(<VirtualTable caption="Nobody" columns={columns} rows={[]} rowKey={(row) => row.id} />);
    expect(screen.getByText('No data found')).toBeTruthy();
  });

  it('reports sorting like the plain table', () => {
    const onSortChange = vi.fn();
    render(<VirtualTable caption="Many people" columns={columns} rows={many} rowKey={(row) => row.id} onSortChange={onSortChange} />);
    fireEvent.click(within(screen.getByRole('columnheader', { name: /Age/ })).getByRole('button'));
    expect(onSortChange).toHaveBeenCalledWith({ id: 'age', direction: 'asc' });
  });
});
