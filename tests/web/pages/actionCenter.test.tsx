import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routeByPath } from '../../../src/web/app/routeTable';
import { Actions } from '../../../src/web/pages/actions/Actions';
import { runCounts } from '../../../src/web/pages/actions/runLabels';
import { serveApi } from '../app/helpers';
import { signInWith } from './pageSession';
import { renderPage } from './renderPage';

afterEach(() => vi.unstubAllGlobals());

const dryRun = { id: 8, action_id: 3, trigger: 'manual', status: 'done', dry_run: true, rerun_of: null, started_by_name: 'admin', targets: 12, succeeded: 0, failed: 0, skipped: 1, error: null, created_at: '2026-11-20T10:00:00Z', finished_at: '2026-11-20T10:00:02Z', discovery_id: 7 };
const tagLinux = { id: 3, name: 'Tag Linux servers', trigger: 'manual', enabled: true, scope: { entity: 'device', query: 'OS.Type = Linux' }, type: 'tag', parameters: {}, last_run: dryRun };

describe('the action center', () => {
  it('asks before a run, naming how many devices its scope matches and what the action does, and runs only when confirmed', async () => {
    signInWith(['workflows.view_workflow', 'workflows.run_workflow']);
    const calls = serveApi({
      'GET /actions/actions': { body: { count: 1, results: [tagLinux] } },
      'GET /actions/runs': { body: { count: 1, results: [dryRun] } },
      'POST /actions/scope-preview': { body: { index_id: 7, matching: 1234, sample: [] } },
      'POST /actions/actions/3/run': { status: 202, body: { ...dryRun, id: 9, dry_run: false, status: 'queued' } },
    });
    renderPage(() => <Actions route={routeByPath('/action-center')!} />, '/action-center', '/action-center');
    const row = (await screen.findByText('Tag Linux servers')).closest('tr')!;
    // The last run was a dry run: a preview, not "0/12 succeeded".
    expect(within(row).getByText(/Preview: would act on 12 targets \(1 skipped\); nothing was done/)).toBeTruthy();
    expect(within(row).queryByText(/0\/12/)).toBeNull();
    fireEvent.click(within(row).getByRole('button', { name: 'Run' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Run "Tag Linux servers"?' });
    expect(await within(dialog).findByText('It acts on 1,234 devices of the latest snapshot that its scope matches now.')).toBeTruthy();
    expect(within(dialog).getByText(/^What happens: Puts device tags on the devices in scope/)).toBeTruthy();
    expect(calls.find((call) => call.url === '/actions/scope-preview')?.body).toEqual({ entity: 'device', query: 'OS.Type = Linux' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((call) => call.url === '/actions/actions/3/run')).toBe(false);

    fireEvent.click(within(row).getByRole('button', { name: 'Run' }));
    fireEvent.click(await within(await screen.findByRole('alertdialog')).findByRole('button', { name: 'Run now' }));
    await waitFor(() => expect(calls.find((call) => call.url === '/actions/actions/3/run')?.body).toEqual({ dry_run: false }));
  });

  it("reads a run's counts as a run, and a dry run's as a preview", () => {
    expect(runCounts({ ...dryRun, dry_run: false, succeeded: 10, failed: 1, skipped: 1 })).toBe('12 targets · 10 succeeded · 1 failed · 1 skipped');
    expect(runCounts(dryRun)).toBe('Preview: would act on 12 targets (1 skipped); nothing was done');
  });
});
