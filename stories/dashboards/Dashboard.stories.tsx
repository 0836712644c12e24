import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { Dashboard } from '../../src/web/pages/dashboards/Dashboard';
import type { DashboardDataResponse, DashboardResponse } from '../../src/web/pages/dashboards/widgetCatalogue';
import { withSeededQueries } from '../renderers/seededQueries';

const overview: DashboardResponse = {
  id: 1, name: 'Overview', description: 'The inventory at a glance.', is_public: true, groups: [], hr_groups: [], is_default: true, position: 0, created_by: null,
  layout: [{ item: 'widget:2', x: 0, y: 0, w: 6, h: 4 }, { item: 'widget:3', x: 6, y: 0, w: 6, h: 4 }],
};
const data: DashboardDataResponse = {
  id: 1, computed_at: '2026-11-22T10:00:00.000Z',
  tiles: [
    { item: 'widget:2', id: 2, type: 'widget', name: 'Devices and users', data: { kind: 'totals', display: 'number', inventory: 'device', index_id: 7, rows: [{ label: 'Devices', value: 4630, previous: 4598, query: '' }, { label: 'Users', value: 1873, previous: 1873, query: '' }] } },
    { item: 'widget:3', id: 3, type: 'widget', name: 'Certificate expiry', data: { kind: 'certificate_expiry', display: 'bar', inventory: 'certificate', index_id: 7, rows: [], message: 'The latest snapshot holds no certificate: add a TLS certificate scanner connection (or another certificate source) and run a discovery.' } },
    { item: 'widget:4', id: 4, type: 'widget', name: 'Linux trend', error: { saved_queries: ['Saved query 9 does not exist.'] } },
  ],
};

const meta = {
  title: 'Dashboards/Dashboard page',
  component: Dashboard,
  decorators: [withSeededQueries],
  parameters: { seeds: [{ queryKey: ['dashboards', 'list'], data: [overview] }, { queryKey: ['dashboards', 'data', 1], data }] },
} satisfies Meta<typeof Dashboard>;
export default meta;
type Story = StoryObj<typeof meta>;

export const DefaultDashboard: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await waitFor(() => expect(canvas.getByRole('heading', { level: 1, name: 'Overview' })).toBeTruthy());
    expect(canvas.getByText('4,630')).toBeTruthy();
    expect(canvas.getByText(/holds no certificate/)).toBeTruthy();
    // A tile that failed says why; the others still show.
    expect(canvas.getByRole('alert').textContent).toContain('Saved query 9 does not exist.');
    // A tile without a stored place is put in the first free spot, below the others.
    expect((canvas.getByRole('region', { name: 'Linux trend' }) as HTMLElement).style.gridRow).toBe('5 / span 4');
  },
};
