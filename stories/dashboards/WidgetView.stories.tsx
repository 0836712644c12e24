import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, waitFor } from 'storybook/test';
import type { WidgetDataResponse } from '../../src/web/pages/dashboards/widgetCatalogue';
import { WidgetView } from '../../src/web/pages/dashboards/WidgetView';
import '../../src/web/pages/dashboards/dashboards.css';

// Sample results shaped exactly as the server answers them (see tests/server/dashboardsWidgets.test.ts).
const data = (kind: string, display: WidgetDataResponse['display'], rows: Record<string, unknown>[], extra: Partial<WidgetDataResponse> = {}): WidgetDataResponse => ({
  kind, display, inventory: 'device', index_id: 12, rows, ...extra,
});
const dates = ['2026-11-01T02:00:00.000Z', '2026-11-08T02:00:00.000Z', '2026-11-15T02:00:00.000Z', '2026-11-22T02:00:00.000Z'];
const series = (name: string, values: number[], query = '') => values.map((value, index) => ({ date: dates[index], series: name, value, index_id: 9 + index, query }));

const meta = {
  title: 'Dashboards/Widgets',
  component: WidgetView,
  args: { title: 'Widget', onOpenQuery: fn(), data: data('totals', 'number', []) },
  decorators: [(Story) => <div style={{ width: 480, height: 300 }}><Story /></div>],
} satisfies Meta<typeof WidgetView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const ConnectionStatuses: Story = { args: { title: 'Connection statuses', data: data('connection_statuses', 'pie', [{ label: 'Done', value: 12 }, { label: 'Warning', value: 2 }, { label: 'Error', value: 1 }, { label: 'Disabled', value: 3 }], { inventory: 'connection', total: 18 }) } };
export const DeviceDiscovery: Story = {
  args: {
    title: 'Devices per adapter',
    data: data('device_discovery', 'bar', [
      { label: 'crowdstrike', value: 4210, query: 'Adapters = "crowdstrike"' }, { label: 'active-directory', value: 3987, query: 'Adapters = "active-directory"' },
      { label: 'qualys', value: 2875, query: 'Adapters = "qualys"' }, { label: 'Unique devices', value: 4630, query: '' },
    ]),
  },
  // A click on a bar opens the device inventory filtered by that bar's query.
  play: async ({ canvasElement, args }) => {
    await waitFor(() => expect(canvasElement.querySelectorAll('.dashboard-vega svg .mark-rect path').length).toBe(4), { timeout: 10_000 });
    const bar = canvasElement.querySelector('.dashboard-vega svg .mark-rect path') as SVGElement;
    bar.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: 1, clientY: 1 }));
    await waitFor(() => expect(args.onOpenQuery).toHaveBeenCalledWith(expect.stringMatching(/^\/device-inventory\?query=Adapters%20%3D%20%22/)));
  },
};
export const QueryHistorical: Story = { args: { title: 'Windows devices over time', data: data('query_historical', 'line', series('OS.Type = Windows', [2980, 3011, 3050, 3102], 'OS.Type = Windows')) } };
export const TimeDifferential: Story = {
  args: { title: 'Servers, this week', data: data('time_differential', 'number', [{ label: 'Now', value: 412, previous: 398, query: 'Category = Server' }, { label: '7 days before', value: 398 }, { label: 'Added', value: 19 }, { label: 'Removed', value: 5 }]) },
};
export const Totals: Story = { args: { title: 'Devices and users', data: data('totals', 'number', [{ label: 'Devices', inventory: 'device', value: 4630, previous: 4598, query: '' }, { label: 'Users', inventory: 'user', value: 1873, previous: 1873, query: '' }]) } };
export const CertificateExpiry: Story = {
  args: {
    title: 'Certificate expiry',
    data: data('certificate_expiry', 'bar', [
      { label: 'Expired', value: 3, query: 'NotAfter < "2026-11-22T00:00:00.000Z"' }, { label: 'Within 30 days', value: 7, query: '' }, { label: 'Within 90 days', value: 12, query: '' }, { label: 'Later', value: 140, query: '' },
    ], { inventory: 'certificate', total: 162 }),
  },
};
export const CertificateExpiryEmpty: Story = {
  args: { title: 'Certificate expiry', data: data('certificate_expiry', 'bar', [], { inventory: 'certificate', message: 'The latest snapshot holds no certificate: add a TLS certificate scanner connection (or another certificate source) and run a discovery.' }) },
};
export const GroupBy: Story = {
  args: {
    title: 'Devices by operating system',
    data: data('group_by', 'pie', [
      { label: 'Windows', value: 3102, query: 'OS.Type = "Windows"' }, { label: 'Linux', value: 1120, query: 'OS.Type = "Linux"' },
      { label: 'macOS', value: 301, query: 'OS.Type = "macOS"' }, { label: 'No value', value: 107, query: 'NOT OS.Type = *' },
    ], { total: 4630 }),
  },
  // The chart is drawn by the lazily loaded vega stack: one slice per segment, as SVG paths.
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(canvasElement.querySelector('.dashboard-vega svg')).not.toBeNull(), { timeout: 10_000 });
    expect(canvasElement.querySelectorAll('.dashboard-vega svg .mark-arc path').length).toBe(4);
  },
};
export const LowestSecurityScore: Story = {
  args: {
    title: 'Lowest security scores',
    data: data('lowest_security_score', 'table', [
      { Hostname: 'ws-000412', 'OS.Type': 'Windows', SecurityScore: 12, query: 'PrimaryKey = "1:aid-412"' }, { Hostname: 'srv-000031', 'OS.Type': 'Linux', SecurityScore: 27, query: 'PrimaryKey = "1:aid-31"' },
    ], { columns: ['Hostname', 'OS.Type', 'SecurityScore'] }),
  },
};
export const SecurityScore: Story = { args: { title: 'Security score', data: data('security_score', 'number', [{ label: 'Average score', value: 71.4, query: 'SecurityScore = *' }, { label: 'Devices scored', value: 4210, query: 'SecurityScore = *' }, { label: 'Scoring below 50', value: 388, query: 'SecurityScore < 50' }]) } };
export const SecurityScoreEmpty: Story = {
  args: { title: 'Security score', data: data('security_score', 'number', [], { message: 'No device in the latest snapshot has a SecurityScore: scores appear once security policies are evaluated during discovery enrichment or an adapter reports them.' }) },
};
export const QueryTrend: Story = { args: { title: 'Coverage gaps', data: data('query_trend', 'line', [...series('Without EDR', [310, 290, 260, 240], 'Query is 4'), ...series('Stale devices', [120, 131, 128, 140], 'Query is 5')]) } };
export const Trend: Story = { args: { title: 'Inventory trend', data: data('trend', 'line', [...series('Devices', [4500, 4550, 4598, 4630]), ...series('Users', [1850, 1862, 1873, 1873])]) } };
export const VulnerabilityByOs: Story = {
  args: { title: 'Vulnerabilities by OS', data: data('vulnerability_by_os', 'bar', [{ label: 'Windows', value: 9120, devices: 2870, query: '' }, { label: 'Linux', value: 2311, devices: 840, query: '' }]) },
};
export const VulnerabilityBySeverity: Story = {
  args: {
    title: 'Vulnerabilities by severity',
    data: data('vulnerability_by_severity', 'pie', [{ label: 'Critical', value: 41, query: 'Severity = "Critical"' }, { label: 'High', value: 230, query: 'Severity = "High"' }, { label: 'Medium', value: 611, query: 'Severity = "Medium"' }, { label: 'Low', value: 402, query: 'Severity = "Low"' }], { inventory: 'vulnerability', total: 1284 }),
  },
};
export const VulnerabilityBySoftware: Story = {
  args: { title: 'Vulnerabilities by software', data: data('vulnerability_by_software', 'bar', [{ label: 'OpenSSL', value: 48, query: 'SoftwareName = "OpenSSL"' }, { label: 'Chrome', value: 31, query: 'SoftwareName = "Chrome"' }], { inventory: 'vulnerability' }) },
};
export const VulnerabilityBySource: Story = {
  args: { title: 'Vulnerabilities by source', data: data('vulnerability_by_source', 'bar', [{ label: 'qualys', value: 8011, devices: 2750, query: '' }, { label: 'crowdstrike', value: 3420, devices: 1980, query: '' }]) },
};
export const DiscoveryInfo: Story = {
  args: {
    title: 'Latest discovery',
    data: data('discovery_info', 'info', [
      { label: 'Status', value: 'done' }, { label: 'Started', value: '2026-11-22T02:00:00.000Z' }, { label: 'Duration (seconds)', value: 412 }, { label: 'Connections', value: 15 },
      { label: 'Connections failed', value: 1 }, { label: 'Published device records', value: 4630 },
    ]),
  },
};
export const NextDiscoveries: Story = {
  args: { title: 'Next discoveries', data: data('next_discoveries', 'info', [{ label: 'Next discovery', value: '2026-11-23T02:00:00.000Z' }, { label: 'Then (2)', value: '2026-11-24T02:00:00.000Z' }], { columns: ['0 2 * * * (UTC)'] }) },
};
export const ScoreChart: Story = { args: { title: 'EDR coverage', data: data('score', 'number', [{ label: 'Score', value: 90.9, matched: 4210, total: 4630, query: 'Adapters = "crowdstrike"' }], { total: 4630 }) } };
export const NumberChart: Story = { args: { title: 'Windows without EDR', data: data('number', 'number', [{ label: 'Records', value: 312, total: 4630, query: 'OS.Type = Windows AND NOT Adapters = crowdstrike' }]) } };
export const TableChart: Story = {
  args: {
    title: 'Devices by category',
    data: data('table', 'table', [{ Category: 'Workstation', Count: 2210, query: 'Category = "Workstation"' }, { Category: 'Laptop', Count: 1790, query: 'Category = "Laptop"' }], { columns: ['Category', 'Count'] }),
  },
};
