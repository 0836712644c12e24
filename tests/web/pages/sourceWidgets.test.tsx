import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WidgetForm } from '../../../src/web/pages/dashboards/WidgetForm';
import { sourceTabLabels } from '../../../src/web/pages/inventories/sources';
import { serveApi } from '../app/helpers';
import { signInWith } from './pageSession';
import { renderPage } from './renderPage';

beforeEach(() => signInWith(['dashboards.add_widget']));
afterEach(() => vi.unstubAllGlobals());

describe('source-grouped widgets', () => {
  it('offer counting per connection or per adapter, and send the choice with the widget', async () => {
    const calls = serveApi({ 'GET /queries/queries': { body: { count: 0, results: [] } }, 'POST /dashboards/widgets': { status: 201, body: { id: 9 } } });
    renderPage(WidgetForm, '/dashboard/add-widget/$dashboardId', '/dashboard/add-widget/1');
    fireEvent.change(await screen.findByLabelText(/^Name/), { target: { value: 'Devices per source' } });
    expect(screen.queryByLabelText('Count per source')).toBeNull();
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'device_discovery' } });
    const grouping = screen.getByLabelText('Count per source') as HTMLSelectElement;
    expect([...grouping.options].map((option) => option.textContent)).toEqual(['Each connection', 'Each adapter']);
    expect(grouping.value).toBe('connection');
    fireEvent.change(grouping, { target: { value: 'adapter' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({ name: 'Devices per source', kind: 'device_discovery', sources: 'adapter' }));
  });
});

describe('source panels of an asset', () => {
  it('are named after their connections, numbered when one connection sent several records', () => {
    expect(sourceTabLabels([
      { connection_id: 3, connection_name: 'EDR hosts (CSV export)' },
      { connection_id: 1, connection_name: 'Directory computers (CSV export)' },
      { connection_id: 3, connection_name: 'EDR hosts (CSV export)' },
    ])).toEqual(['EDR hosts (CSV export) (1)', 'Directory computers (CSV export)', 'EDR hosts (CSV export) (2)']);
  });
});
