import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ReportBuilder } from '../../../src/web/pages/reports/ReportBuilder';
import { Reports } from '../../../src/web/pages/reports/Reports';
import { ReportScheduleForm } from '../../../src/web/pages/reports/ReportScheduleForm';
import { ReportSchedules } from '../../../src/web/pages/reports/ReportSchedules';
import { serveApi } from '../app/helpers';
import { signInWith, withPermissions } from './pageSession';
import { renderPage } from './renderPage';

const all = ['reports.view_report', 'reports.add_report', 'reports.change_report', 'reports.delete_report', 'reports.download_report',
  'reports.view_reportschedule', 'reports.add_reportschedule', 'reports.change_reportschedule', 'reports.delete_reportschedule'];
const draft = {
  name: 'Unmanaged devices', description: 'Weekly', is_public: true, format: 'xlsx', page_size: 'A4', orientation: 'landscape', show_company: true, show_logo: true, time_zone: 'Europe/Istanbul', index_id: null,
  sections: [{ type: 'table', title: 'Devices', inventory: 'device', query: 'Colour = red', saved_query: null, columns: ['Hostname'], sort: [], limit: 100 }],
};
const configuration = { 'GET /configurations/discovery': { body: { field_map: { Hostname: { value_type: 'text', label: 'Host Name', adapter: 'Cartograph' } } } } };
const builderUrl = (step: string, value: unknown = draft) => `/reports/builder?step=${step}&draft=${encodeURIComponent(JSON.stringify(value))}`;
/** The draft the builder wrote back into its URL. */
const draftInUrl = (router: { state: { location: { search: unknown } } }) => (router.state.location.search as { draft: typeof draft }).draft;
const searchOf = (router: { state: { location: { search: unknown } } }) => router.state.location.search as Record<string, unknown>;

beforeEach(() => {
  signInWith(all);
});
afterEach(() => vi.unstubAllGlobals());

describe('the report builder', () => {
  it('restores step and draft from the URL and writes every change back to it', async () => {
    serveApi({ ...configuration, 'POST /reports/preview': { body: { index_id: 4, sections: [{ type: 'table', title: 'Devices', columns: [{ field: 'Hostname', label: 'Host Name' }], rows: [['ws-1']], count: 1 }] } } });
    const { router } = renderPage(ReportBuilder, '/reports/builder', builderUrl('configure'));
    expect((await screen.findByRole('tab', { name: '2. Configure' })).getAttribute('aria-selected')).toBe('true');
    expect((screen.getByLabelText('Time zone') as HTMLInputElement).value).toBe('Europe/Istanbul');
    expect((screen.getByLabelText('Orientation') as HTMLSelectElement).value).toBe('landscape');

    fireEvent.change(screen.getByLabelText('Page size'), { target: { value: 'Letter' } });
    fireEvent.click(screen.getByRole('tab', { name: '1. Define' }));
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Unmanaged devices (weekly)' } });
    await waitFor(() => expect(draftInUrl(router).name).toBe('Unmanaged devices (weekly)'));
    expect(searchOf(router).step).toBe('define');
    expect(draftInUrl(router).page_size).toBe('Letter');
    expect(draftInUrl(router).sections).toEqual(draft.sections);
  });

  it('a reload of the written URL shows the same work, and the preview is asked for with it', async () => {
    const first = serveApi({ ...configuration, 'POST /reports/preview': { body: { index_id: 4, sections: [] } } });
    const { router, unmount } = renderPage(ReportBuilder, '/reports/builder', builderUrl('builder'));
    await screen.findByRole('heading', { name: 'Section 1: table' });
    fireEvent.click(screen.getByRole('button', { name: 'Add text' }));
    fireEvent.change(await screen.findByLabelText('Text (Markdown)'), { target: { value: '## Why\nNo **EDR**.' } });
    await waitFor(() => expect(draftInUrl(router).sections).toHaveLength(2));
    fireEvent.click(screen.getByRole('button', { name: 'Move section 2 up' }));
    await waitFor(() => expect(draftInUrl(router).sections[0]!.type).toBe('text'));
    await waitFor(() => expect(first.some((call) => call.method === 'POST' && (call.body as typeof draft).sections[0]?.type === 'text')).toBe(true), { timeout: 3000 });
    const written = router.state.location.href;
    unmount();

    serveApi({ ...configuration, 'POST /reports/preview': { body: { index_id: 4, sections: [] } } });
    renderPage(ReportBuilder, '/reports/builder', written);
    expect(await screen.findByRole('heading', { name: 'Section 1: text' })).toBeTruthy();
    expect((screen.getByLabelText('Text (Markdown)') as HTMLTextAreaElement).value).toBe('## Why\nNo **EDR**.');
    expect(screen.getByRole('heading', { name: 'Section 2: table' })).toBeTruthy();
  });

  it('applies a section query as it is typed, once it parses', async () => {
    serveApi({ ...configuration, 'POST /reports/preview': { body: { index_id: 4, sections: [] } } });
    const { router } = renderPage(ReportBuilder, '/reports/builder', builderUrl('builder'));
    const query = await screen.findByLabelText('Query');
    fireEvent.change(query, { target: { value: 'Hostname = (' } });
    fireEvent.change(query, { target: { value: 'Hostname = web*' } });
    await waitFor(() => expect(draftInUrl(router).sections[0]!.query).toBe('Hostname = web*'));
    fireEvent.change(query, { target: { value: 'Hostname = (' } });
    expect(query.getAttribute('aria-invalid')).toBe('true');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(draftInUrl(router).sections[0]!.query).toBe('Hostname = web*');
  });

  it('shows a section the server cannot compute, and a refused save, on that section', async () => {
    const calls = serveApi({
      ...configuration,
      'POST /reports/preview': { body: { index_id: 4, sections: [{ type: 'table', title: 'Devices', error: 'Unknown field "Colour".' }] } },
      'POST /reports/reports': { status: 400, body: { 'sections.0.query': ['The saved query 7 was deleted.'] } },
    });
    renderPage(ReportBuilder, '/reports/builder', builderUrl('define'));
    fireEvent.click(await screen.findByRole('button', { name: 'Create report' }));
    const section = (await screen.findByRole('heading', { name: 'Section 1: table' })).closest('.report-section') as HTMLElement;
    expect(screen.getByRole('tab', { name: '3. Builder' }).getAttribute('aria-selected')).toBe('true');
    expect(await within(section).findByText('The saved query 7 was deleted.')).toBeTruthy();
    expect(await within(section).findByText('Unknown field "Colour".', {}, { timeout: 3000 })).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST' && call.url === '/reports/reports')?.body).toMatchObject({ name: 'Unmanaged devices', sections: draft.sections });
  });

  it('edits a stored report named by ?reportId= and saves it with PUT', async () => {
    const calls = serveApi({
      ...configuration,
      'GET /reports/reports/3': { body: { id: 3, ...draft, owner_id: 1, user_full_name: 'Jane Doe', created_at: '2026-11-20T10:00:00Z', updated_at: '2026-11-20T10:00:00Z' } },
      'PUT /reports/reports/3': { body: { id: 3, ...draft } },
    });
    const { router } = renderPage(ReportBuilder, '/reports/builder', '/reports/builder?reportId=3');
    expect(((await screen.findByLabelText(/^Name/)) as HTMLInputElement).value).toBe('Unmanaged devices');
    await waitFor(() => expect(draftInUrl(router)?.name).toBe('Unmanaged devices'));
    expect(searchOf(router).reportId).toBe(3);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({ name: 'Unmanaged devices', time_zone: 'Europe/Istanbul' }));
  });
});

describe('the configure step', () => {
  const discoveries = { count: 2, results: [
    { id: 12, status: 'done', trigger: 'schedule', start_time: '2026-11-25T08:00:00Z', end_time: '2026-11-25T08:05:00Z', error: '', progress: { assets: { device: 120, user: 1, vulnerability: 0 } } },
    { id: 11, status: 'done', trigger: 'manual', start_time: '2026-11-24T08:00:00Z', end_time: '2026-11-24T08:05:00Z', error: '', progress: {} },
    { id: 10, status: 'done', trigger: 'manual', start_time: '2026-11-23T08:00:00Z', end_time: '2026-11-23T08:05:00Z', error: '', progress: { assets: { device: 118 } }, pruned_at: '2026-11-25T08:06:00Z' },
  ] };

  it('picks the snapshot among the finished discoveries, Latest by default, and keeps a pruned choice by its number', async () => {
    const calls = serveApi({ 'GET /discoveries/discoveries': { body: discoveries }, 'GET /reports/logo': { body: { image: null, content_type: null, size: 0, updated_at: null } } });
    signInWith([...all, 'discoveries.view_discovery']);
    const { router } = renderPage(ReportBuilder, '/reports/builder', builderUrl('configure'));
    const picker = (await screen.findByLabelText('Snapshot')) as HTMLSelectElement;
    const option = await screen.findByRole('option', { name: /^#12 · .* · 120 devices, 1 user$/ });
    expect(picker.value).toBe('');
    expect(within(picker).getAllByRole('option').map((item) => item.textContent)[0]).toBe('Latest');
    expect(within(picker).getByRole('option', { name: /^#11 · .* · no assets$/ })).toBeTruthy();
    // A pruned snapshot has no rows left to report on: not offered.
    expect(within(picker).queryByRole('option', { name: /^#10 / })).toBeNull();
    expect(calls.find((call) => call.url.startsWith('/discoveries/discoveries'))?.url).toMatch(/status=done/);
    fireEvent.change(picker, { target: { value: (option as HTMLOptionElement).value } });
    await waitFor(() => expect(draftInUrl(router).index_id).toBe(12));
    fireEvent.change(picker, { target: { value: '' } });
    await waitFor(() => expect(draftInUrl(router).index_id).toBeNull());
  });

  it('shows a snapshot no longer listed by its number', async () => {
    serveApi({ 'GET /discoveries/discoveries': { body: discoveries }, 'GET /reports/logo': { body: { image: null, content_type: null, size: 0, updated_at: null } } });
    signInWith([...all, 'discoveries.view_discovery']);
    renderPage(ReportBuilder, '/reports/builder', builderUrl('configure', { ...draft, index_id: 3 }));
    expect(await screen.findByRole('option', { name: '#3 (no longer among the finished discoveries)' })).toBeTruthy();
    expect(((await screen.findByLabelText('Snapshot')) as HTMLSelectElement).value).toBe('3');
  });

  it('uploads the company logo, shows the server\'s refusal of a file that is not an image, and removes it', async () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    const calls = serveApi({
      'GET /discoveries/discoveries': { body: discoveries },
      'GET /reports/logo': { body: { image: null, content_type: null, size: 0, updated_at: null } },
      'PUT /reports/logo': [{ status: 400, body: { image: ['The file is not a PNG or JPEG image.'] } }, { body: { image: png, content_type: 'image/png', size: 70, updated_at: '2026-11-25T10:00:00Z' } }],
      'DELETE /reports/logo': { status: 204 },
    });
    renderPage(ReportBuilder, '/reports/builder', builderUrl('configure'));
    const input = await screen.findByLabelText('Company logo');
    expect(await screen.findByText('No logo uploaded')).toBeTruthy();
    fireEvent.change(input, { target: { files: [new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' })] } });
    expect(await screen.findByText('The file is not a PNG or JPEG image.')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ image: btoa('<svg/>') });
    fireEvent.change(input, { target: { files: [new File([Uint8Array.from(atob(png), (c) => c.charCodeAt(0))], 'logo.png', { type: 'image/png' })] } });
    const preview = (await screen.findByRole('img', { name: "The company's report logo" })) as HTMLImageElement;
    expect(preview.getAttribute('src')).toBe(`data:image/png;base64,${png}`);
    expect(calls.filter((call) => call.method === 'PUT')[1]?.body).toEqual({ image: png });
    fireEvent.click(screen.getByRole('button', { name: 'Remove logo' }));
    expect(await screen.findByText('No logo uploaded')).toBeTruthy();
    expect(calls.some((call) => call.method === 'DELETE' && call.url === '/reports/logo')).toBe(true);
  });

  it('refuses a logo over 256 kB without uploading it, and offers no upload without reports.change_report', async () => {
    const calls = serveApi({ 'GET /reports/logo': { body: { image: null, content_type: null, size: 0, updated_at: null } } });
    const { unmount } = renderPage(ReportBuilder, '/reports/builder', builderUrl('configure'));
    fireEvent.change(await screen.findByLabelText('Company logo'), { target: { files: [new File([new Uint8Array(300 * 1024)], 'huge.png', { type: 'image/png' })] } });
    expect(await screen.findByText('The file is 300 kB; a logo may be at most 256 kB.')).toBeTruthy();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
    unmount();
    withPermissions(['reports.view_report', 'reports.add_report']);
    serveApi({ 'GET /reports/logo': { body: { image: null, content_type: null, size: 0, updated_at: null } } });
    renderPage(ReportBuilder, '/reports/builder', builderUrl('configure'));
    expect(await screen.findByText(/changing it needs the right to change reports/)).toBeTruthy();
    expect(screen.queryByLabelText('Company logo')).toBeNull();
  });
});

describe('the report list', () => {
  const report = { id: 3, ...draft, owner_id: 1, user_full_name: 'Jane Doe', created_at: '2026-11-20T10:00:00Z', updated_at: '2026-11-20T10:00:00Z',
    last_run: { id: 9, status: 'done', formats: ['xlsx'], queued_at: '2026-11-25T10:00:00Z', finished_at: '2026-11-25T10:00:03Z' } };
  const runs = { results: [
    { id: 9, report: 3, schedule: null, report_name: 'Unmanaged devices', formats: ['xlsx'], index_id: 4, status: 'done', progress: {}, error: '', delivery_status: '', delivery_error: '', requested_by: 'Jane Doe',
      queued_at: '2026-11-25T10:00:00Z', started_at: '2026-11-25T10:00:01Z', finished_at: '2026-11-25T10:00:03Z', duration_seconds: 2, files: [{ format: 'xlsx', filename: 'unmanaged.xlsx', size: 20480, url: '/reports/runs/9/files/xlsx' }] },
    { id: 8, report: 3, schedule: null, report_name: 'Unmanaged devices', formats: ['pdf'], index_id: 4, status: 'error', progress: {}, error: 'Devices: Unknown field "Colour".', delivery_status: '', delivery_error: '', requested_by: 'Jane Doe',
      queued_at: '2026-11-24T10:00:00Z', started_at: null, finished_at: '2026-11-24T10:00:01Z', duration_seconds: null, files: [] },
  ] };

  it('lists each report with owner, visibility and last run, runs it in a chosen format and shows past runs', async () => {
    const calls = serveApi({
      'GET /reports/reports': { body: { count: 1, results: [report] } },
      'GET /reports/reports/3/runs': { body: runs },
      'POST /reports/reports/3/run': { status: 202, body: { ...runs.results[0], id: 10, status: 'queued', files: [] } },
    });
    renderPage(Reports, '/reports', '/reports');
    const row = (await screen.findByRole('button', { name: 'Unmanaged devices' })).closest('tr') as HTMLElement;
    expect(within(row).getByText('Jane Doe')).toBeTruthy();
    expect(within(row).getByText('Public')).toBeTruthy();
    expect(await within(row).findByText('done')).toBeTruthy();
    // The last run comes with the list: no call per report until one is opened.
    expect(calls.some((call) => call.url.includes('/runs'))).toBe(false);
    fireEvent.change(within(row).getByLabelText('Format of Unmanaged devices'), { target: { value: 'pdf' } });
    fireEvent.click(within(row).getByRole('button', { name: 'Run now' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ formats: ['pdf'] }));
    expect(await screen.findByRole('button', { name: 'Download unmanaged.xlsx' })).toBeTruthy();
    expect(screen.getByText('Devices: Unknown field "Colour".')).toBeTruthy();
    expect(screen.getByText(/took 2\.0 s/)).toBeTruthy();
  });

  it('offers a viewer no run, edit, delete or download', async () => {
    withPermissions(['reports.view_report']);
    serveApi({ 'GET /reports/reports': { body: { count: 1, results: [report] } }, 'GET /reports/reports/3/runs': { body: runs } });
    renderPage(Reports, '/reports', '/reports');
    fireEvent.click(await screen.findByRole('button', { name: 'Unmanaged devices' }));
    await screen.findByText('Devices: Unknown field "Colour".');
    for (const name of ['Run now', 'Delete', 'New report', 'Download unmanaged.xlsx']) expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
  });

  it('shows Never run for a report without runs, and no Edit link to a user who may change reports but not reach the builder', async () => {
    withPermissions(['reports.view_report', 'reports.change_report']);
    serveApi({ 'GET /reports/reports': { body: { count: 1, results: [{ ...report, last_run: null }] } } });
    renderPage(Reports, '/reports', '/reports');
    const row = (await screen.findByRole('button', { name: 'Unmanaged devices' })).closest('tr') as HTMLElement;
    expect(within(row).getByText('Never run')).toBeTruthy();
    expect(within(row).queryByRole('link', { name: 'Edit' })).toBeNull();
  });
});

describe('the schedule list', () => {
  const schedule = {
    id: 2, name: 'Weekly unmanaged devices', report: 3, enabled: true, preset: 'weekly', time: '08:00', weekday: 1, day_of_month: 1, cron: '', timezone: 'Europe/Istanbul', formats: ['pdf'],
    recipient_users: [1], recipients: ['it@example.com'], subject: '', body: '', next_run_at: '2026-11-30T05:00:00.000Z', last_run_at: '2026-11-23T05:00:00.000Z',
    last_status: 'failed', last_error: 'No such mailbox', failures: 3, created_at: '2026-11-20T10:00:00Z', updated_at: '2026-11-20T10:00:00Z',
  };

  it('shows when each schedule runs, its report, and why its last delivery failed', async () => {
    serveApi({ 'GET /reports/schedules': { body: { count: 1, results: [schedule] } }, 'GET /reports/reports': { body: { count: 1, results: [{ id: 3, ...draft, user_full_name: 'Jane Doe' }] } } });
    renderPage(ReportSchedules, '/reports/schedules', '/reports/schedules');
    const row = (await screen.findByText('Weekly unmanaged devices')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Weekly on Monday at 08:00 (Europe/Istanbul)')).toBeTruthy();
    expect(await within(row).findByText('Unmanaged devices')).toBeTruthy();
    expect(within(row).getByText('failed')).toBeTruthy();
    expect(within(row).getByText(/No such mailbox \(3 failures in a row\)/)).toBeTruthy();
    expect(within(row).getByText('2 recipient(s)')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'New schedule' }).getAttribute('href')).toBe('#/reports/schedules/edit/new');
  });

  it('offers a viewer no create, edit or delete', async () => {
    withPermissions(['reports.view_reportschedule', 'reports.view_report']);
    serveApi({ 'GET /reports/schedules': { body: { count: 1, results: [schedule] } }, 'GET /reports/reports': { body: { count: 0, results: [] } } });
    renderPage(ReportSchedules, '/reports/schedules', '/reports/schedules');
    await screen.findByText('Weekly unmanaged devices');
    expect(screen.queryByRole('link', { name: 'New schedule' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });
});

describe('the schedule form', () => {
  it('shows an invalid cron expression and address under their fields, as the server answers them', async () => {
    const calls = serveApi({
      'GET /reports/reports': { body: { count: 1, results: [{ id: 3, ...draft, user_full_name: 'Jane Doe' }] } },
      'GET /users/users': { body: { count: 1, results: [{ id: 1, username: 'admin', first_name: 'Cartograph', last_name: 'Administrator', email: 'admin@example.com' }] } },
      'POST /reports/schedules': { status: 400, body: { cron: ['Invalid cron expression: CronPattern: invalid configuration format'], recipients: ['Not an e-mail address: it-managers@.'] } },
    });
    renderPage(ReportScheduleForm, '/reports/schedules/edit/$scheduleId', '/reports/schedules/edit/new');
    fireEvent.change(await screen.findByLabelText(/^Name/), { target: { value: 'Weekly unmanaged devices' } });
    await screen.findByRole('option', { name: 'Unmanaged devices' });
    fireEvent.change(screen.getByLabelText(/^Report/), { target: { value: '3' } });
    fireEvent.change(screen.getByLabelText('Runs'), { target: { value: 'cron' } });
    fireEvent.change(screen.getByLabelText('Cron expression'), { target: { value: '61 8 * * 1' } });
    fireEvent.change(screen.getByLabelText('Other addresses'), { target: { value: 'it-managers@.\nboss@example.com' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /Cartograph Administrator/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Create schedule' }));

    const cron = screen.getByLabelText('Cron expression');
    await waitFor(() => expect(cron.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText(/Invalid cron expression/)).toBeTruthy();
    expect(screen.getByLabelText('Other addresses').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Not an e-mail address: it-managers@.')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({
      name: 'Weekly unmanaged devices', report: 3, preset: 'cron', cron: '61 8 * * 1', recipients: ['it-managers@.', 'boss@example.com'], recipient_users: [1], formats: ['pdf'],
    });
  });

  it('asks for a name and a report before calling the server', async () => {
    const calls = serveApi({ 'GET /reports/reports': { body: { count: 0, results: [] } }, 'GET /users/users': { body: { count: 0, results: [] } } });
    renderPage(ReportScheduleForm, '/reports/schedules/edit/$scheduleId', '/reports/schedules/edit/new');
    fireEvent.click(await screen.findByRole('button', { name: 'Create schedule' }));
    expect(await screen.findByText('Give the schedule a name.')).toBeTruthy();
    expect(screen.getByText('Choose the report to send.')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });
});
