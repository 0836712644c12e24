import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, waitFor } from 'storybook/test';
import { severityScale } from '../../src/core/dashboards/severityScale';
import type { WidgetDataResponse } from '../../src/web/pages/dashboards/widgetCatalogue';
import { WidgetView } from '../../src/web/pages/dashboards/WidgetView';
import '../../src/web/pages/dashboards/dashboards.css';

// Every chart kind as the demo's Overview dashboard draws it: its sources are the demo's CSV exports
// (src/server/demo/csvExports.ts), its snapshots a daily discovery, with a second run on the last day.
const data = (kind: string, display: WidgetDataResponse['display'], rows: Record<string, unknown>[], extra: Partial<WidgetDataResponse> = {}): WidgetDataResponse => ({
  kind, display, inventory: 'device', index_id: 6, rows, ...extra,
});
const day = (offset: number, time = '02:00') => `2026-11-${String(20 + offset).padStart(2, '0')}T${time}:00.000Z`;
const drawn = (canvas: HTMLElement, selector: string) => waitFor(() => expect(canvas.querySelector(`.dashboard-vega svg ${selector}`)).not.toBeNull(), { timeout: 10_000 });

const meta = {
  title: 'Dashboards/Demo charts',
  component: WidgetView,
  args: { title: 'Chart', onOpenQuery: fn(), data: data('totals', 'number', []) },
  decorators: [(Story) => <div style={{ width: 560, height: 320 }}><Story /></div>],
} satisfies Meta<typeof WidgetView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const DevicesPerSource: Story = {
  args: {
    title: 'Devices per source',
    data: data('device_discovery', 'bar', [
      { label: 'Directory computers (CSV export)', value: 240, query: 'Connections = 1' }, { label: 'EDR hosts (CSV export)', value: 212, query: 'Connections = 2' },
      { label: 'MDM devices (CSV export)', value: 96, query: 'Connections = 3' }, { label: 'Vulnerability scanner assets (CSV export)', value: 181, query: 'Connections = 4' },
      { label: 'CMDB configuration items (CSV export)', value: 230, query: 'Connections = 5' }, { label: 'Unique devices', value: 262, query: '' },
    ]),
  },
  // Long source names are shortened inside the chart, not cut at its edge.
  play: async ({ canvasElement }) => {
    await drawn(canvasElement, '.mark-rect path');
    expect(canvasElement.querySelectorAll('.dashboard-vega svg .mark-rect path').length).toBe(6);
  },
};

export const OperatingSystems: Story = {
  args: {
    title: 'Devices by operating system',
    data: data('group_by', 'pie', [{ label: 'Windows', value: 168, query: 'OS.Type = "Windows"' }, { label: 'Linux', value: 58, query: 'OS.Type = "Linux"' }, { label: 'macOS', value: 31, query: 'OS.Type = "macOS"' }, { label: 'No value', value: 5, query: 'NOT OS.Type = *' }], { total: 262 }),
  },
  // A donut writes its values on the slices large enough to hold them (the "No value" sliver stays unlabelled).
  play: async ({ canvasElement }) => {
    await drawn(canvasElement, '.mark-text.role-mark text');
    const labels = [...canvasElement.querySelectorAll('.dashboard-vega svg .mark-text.role-mark text')].map((text) => text.textContent);
    expect(labels.sort()).toEqual(['168', '31', '58']);
  },
};

const severities = [{ label: 'Critical', value: 4, query: 'Severity = "Critical"' }, { label: 'High', value: 11, query: 'Severity = "High"' }, { label: 'Medium', value: 17, query: 'Severity = "Medium"' }, { label: 'Low', value: 6, query: 'Severity = "Low"' }];
const severityColour = (name: string) => severityScale('light').range[severityScale('light').domain.indexOf(name)];

export const VulnerabilitiesBySeverity: Story = {
  args: { title: 'Vulnerabilities by severity', data: data('vulnerability_by_severity', 'pie', severities, { inventory: 'vulnerability', total: 38 }) },
  // Each slice takes its severity's colour from the one shared scale.
  play: async ({ canvasElement }) => {
    await drawn(canvasElement, '.mark-arc path');
    const fills = [...canvasElement.querySelectorAll('.dashboard-vega svg .mark-arc path')].map((path) => path.getAttribute('fill'));
    expect(new Set(fills)).toEqual(new Set(['Critical', 'High', 'Medium', 'Low'].map(severityColour)));
  },
};

export const VulnerabilitiesBySeverityAsBars: Story = {
  args: { title: 'Vulnerabilities by severity', data: data('vulnerability_by_severity', 'bar', severities.slice(1), { inventory: 'vulnerability', total: 34 }) },
  // Without a Critical one, High keeps its colour: the scale names every severity, not just the ones present.
  play: async ({ canvasElement }) => {
    await drawn(canvasElement, '.mark-rect path');
    const fills = [...canvasElement.querySelectorAll('.dashboard-vega svg .mark-rect path')].map((path) => path.getAttribute('fill'));
    expect(new Set(fills)).toEqual(new Set(['High', 'Medium', 'Low'].map(severityColour)));
  },
};

const trend = (series: string, values: number[], times: string[]) => values.map((value, index) => ({ date: times[index], series, value, index_id: index + 1, query: '' }));
const daily = [day(0), day(1), day(2), day(3), day(4), day(5)];

export const InventoryTrend: Story = {
  args: { title: 'Inventory trend', data: data('trend', 'line', [...trend('Devices', [250, 254, 255, 259, 260, 262], daily), ...trend('Users', [180, 180, 182, 183, 183, 185], daily)]) },
  play: async ({ canvasElement }) => {
    await drawn(canvasElement, '.mark-line path');
    expect(canvasElement.querySelectorAll('.dashboard-vega svg .mark-line path').length).toBe(2);
  },
};

export const InventoryTrendOnOneDay: Story = {
  args: { title: 'Inventory trend', data: data('trend', 'line', trend('Devices', [258, 262], [day(5, '02:00'), day(5, '14:30')])) },
  // Two discoveries on one day: the axis reads times, not the same date twice (timeAxis, tests/unit/chartSpecs.test.ts;
  // jsdom gives the chart no width to lay its axis out, so the story checks the line).
  play: async ({ canvasElement }) => {
    await drawn(canvasElement, '.mark-line path');
    expect(canvasElement.querySelectorAll('.dashboard-vega svg .mark-line path').length).toBe(1);
  },
};

export const ConnectionStatuses: Story = {
  args: { title: 'Connection statuses', data: data('connection_statuses', 'pie', [{ label: 'Done', value: 8 }], { inventory: 'connection', total: 8 }) },
  play: async ({ canvasElement }) => {
    await drawn(canvasElement, '.mark-text.role-mark text');
    expect(canvasElement.querySelector('.dashboard-vega svg .mark-text.role-mark text')?.textContent).toBe('8');
  },
};

export const LatestDiscovery: Story = {
  args: {
    title: 'Latest discovery',
    data: data('discovery_info', 'info', [
      { label: 'Status', value: 'done' }, { label: 'Started', value: day(5) }, { label: 'Finished', value: day(5, '02:01') }, { label: 'Duration (seconds)', value: 48 },
      { label: 'Started by', value: 'demo' }, { label: 'Connections', value: 12 }, { label: 'Connections failed', value: 0 },
      { label: 'Published device records', value: 262 }, { label: 'Published user records', value: 185 }, { label: 'Published software records', value: 74 },
      { label: 'Published vulnerability records', value: 38 }, { label: 'Published service records', value: 21 }, { label: 'Published license records', value: 6 },
    ]),
  },
};
