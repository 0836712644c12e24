import type { Meta, StoryObj } from '@storybook/react-vite';
import type { TableColumn } from '../../src/web/ui/Table/columns';
import { VirtualTable } from '../../src/web/ui/Table/VirtualTable';

type Device = { id: number; hostname: string; ip: string; os: string };
const devices: Device[] = Array.from({ length: 10_000 }, (_, index) => ({
  id: index + 1,
  hostname: `web-${String(index + 1).padStart(5, '0')}`,
  ip: `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`,
  os: ['Windows', 'Linux', 'macOS'][index % 3],
}));
const columns: TableColumn<Device>[] = [
  { id: 'hostname', header: 'Hostname', cell: (row) => row.hostname },
  { id: 'ip', header: 'IP address', cell: (row) => row.ip },
  { id: 'os', header: 'OS', cell: (row) => row.os },
];

const meta = {
  title: 'UI/VirtualTable',
  component: VirtualTable<Device>,
  args: { caption: 'Devices', columns, rows: devices, rowKey: (row: Device) => row.id, height: 420 },
} satisfies Meta<typeof VirtualTable<Device>>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Ten thousand rows; only those in view are in the DOM. */
export const TenThousandRows: Story = {};
export const Empty: Story = { args: { rows: [] } };
