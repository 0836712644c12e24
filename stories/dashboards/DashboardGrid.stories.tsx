import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { DashboardGrid } from '../../src/web/pages/dashboards/DashboardGrid';
import '../../src/web/pages/dashboards/dashboards.css';

const tiles = [
  { item: 'widget:1', title: 'Devices and users', body: <p>4,630 devices · 1,873 users</p> },
  { item: 'widget:2', title: 'Devices by operating system', body: <p>Windows 3,102 · Linux 1,120</p> },
  { item: 'chart:3', title: 'EDR coverage', body: <p>90.9%</p> },
];
const layout = [
  { item: 'widget:1', x: 0, y: 0, w: 4, h: 3 },
  { item: 'widget:2', x: 4, y: 0, w: 8, h: 4 },
  { item: 'chart:3', x: 0, y: 4, w: 6, h: 3 },
];

const meta = {
  title: 'Dashboards/Grid',
  component: DashboardGrid,
  args: { tiles, layout, editing: false, onLayoutChange: fn() },
} satisfies Meta<typeof DashboardGrid>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Viewing: Story = {
  play: async ({ canvasElement }) => {
    const sections = within(canvasElement).getAllByRole('region');
    // Tiles come in reading order and sit where their layout puts them.
    expect(sections.map((section) => section.getAttribute('aria-label'))).toEqual(['Devices and users', 'Devices by operating system', 'EDR coverage']);
    expect(sections[1].style.gridColumn).toBe('5 / span 8');
    expect(within(canvasElement).queryByRole('button', { name: 'Wider' })).toBeNull();
  },
};

export const Arranging: Story = {
  args: { editing: true },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const sizer = canvas.getByRole('group', { name: 'Size of EDR coverage' });
    await userEvent.click(within(sizer).getByRole('button', { name: 'Wider' }));
    expect(args.onLayoutChange).toHaveBeenLastCalledWith(expect.arrayContaining([{ item: 'chart:3', x: 0, y: 4, w: 7, h: 3 }]));
    // Dropping one tile on another swaps their places.
    const [first, second] = canvas.getAllByRole('region');
    const transfer = new DataTransfer();
    first.dispatchEvent(Object.assign(new Event('dragstart', { bubbles: true }), { dataTransfer: transfer }));
    second.dispatchEvent(Object.assign(new Event('drop', { bubbles: true, cancelable: true }), { dataTransfer: transfer }));
    expect(args.onLayoutChange).toHaveBeenLastCalledWith(expect.arrayContaining([{ item: 'widget:1', x: 4, y: 0, w: 4, h: 3 }, { item: 'widget:2', x: 0, y: 0, w: 8, h: 4 }]));
  },
};
