import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fireEvent, waitFor, within } from 'storybook/test';
import { AdapterStatusBadge } from '../../src/web/ui/Badge/Badge';
import { Button } from '../../src/web/ui/Button/Button';
import { EmptyState } from '../../src/web/ui/EmptyState/EmptyState';
import { sortRows, type SortState, type TableColumn } from '../../src/web/ui/Table/columns';
import { Table, type TableProps } from '../../src/web/ui/Table/Table';

type Connection = { id: number; name: string; adapter: string; status: number; devices: number };
const connections: Connection[] = [
  { id: 1, name: 'Falcon EU', adapter: 'crowdstrike', status: 1, devices: 4210 },
  { id: 2, name: 'Intune', adapter: 'microsoft-intune', status: 2, devices: 1893 },
  { id: 3, name: 'Corp AD', adapter: 'active-directory', status: 3, devices: 0 },
  { id: 4, name: 'ServiceNow CMDB', adapter: 'servicenow', status: 4, devices: 0 },
];
const columns: TableColumn<Connection>[] = [
  { id: 'name', header: 'Name', cell: (row) => row.name, sortable: true, sortValue: (row) => row.name },
  { id: 'adapter', header: 'Adapter', cell: (row) => row.adapter, sortable: true, sortValue: (row) => row.adapter },
  { id: 'status', header: 'Status', cell: (row) => <AdapterStatusBadge status={row.status} /> },
  { id: 'devices', header: 'Devices', cell: (row) => row.devices.toLocaleString('en-US'), sortable: true, sortValue: (row) => row.devices, align: 'end' },
];

/** Sorts in the browser, the way a page with all rows at hand would. */
function SortedTable(props: TableProps<Connection>) {
  const [sort, setSort] = useState<SortState>(props.sort ?? null);
  return <Table {...props} rows={sortRows(props.rows, props.columns, sort)} sort={sort} onSortChange={setSort} />;
}

const meta = {
  title: 'UI/Table',
  component: SortedTable,
  args: { caption: 'Connections', columns, rows: connections, rowKey: (row: Connection) => row.id },
} satisfies Meta<typeof SortedTable>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Filled: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const header = canvas.getByRole('columnheader', { name: /Devices/ });
    fireEvent.click(within(header).getByRole('button'));
    await waitFor(() => expect(header.getAttribute('aria-sort')).toBe('ascending'));
    fireEvent.click(within(header).getByRole('button'));
    await waitFor(() => expect(header.getAttribute('aria-sort')).toBe('descending'));
    await expect(canvas.getAllByRole('row')[1].textContent).toContain('Falcon EU');
  },
};
export const Sorted: Story = { args: { sort: { id: 'adapter', direction: 'asc' } } };
export const Empty: Story = { args: { rows: [] } };
export const EmptyWithAction: Story = { args: { rows: [], empty: <EmptyState title="No connections yet" action={<Button>Add connection</Button>} /> } };
export const LoadingFirstPage: Story = { args: { rows: [], loading: true } };
export const LoadingNextPage: Story = { args: { loading: true } };
