import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lastDiscoveryQuery, systemInformationQuery, systemPollMs, type DiscoveryResponse, type RunState } from '../../../src/web/pages/discoveries/discoveriesApi';
import { Discoveries } from '../../../src/web/pages/discoveries/Discoveries';
import { DiscoveryDetail } from '../../../src/web/pages/discoveries/DiscoveryDetail';
import { discoveryLists, withDiscovery } from '../../../src/web/pages/discoveries/discoveryLists';
import { serveApi } from '../app/helpers';
import { signInWith } from './pageSession';
import { renderPage } from './renderPage';

const stage = (state: RunState, detail = '') => ({ state, started_at: '2026-11-20T10:00:00Z', finished_at: null, duration_ms: 1500, detail });
const discovery = (id: number, status: DiscoveryResponse['status'], extra: Partial<DiscoveryResponse> = {}): DiscoveryResponse => ({
  id, status, trigger: 'manual', start_time: '2026-11-20T10:00:00Z', end_time: status === 'running' ? null : '2026-11-20T10:01:05Z', error: '',
  progress: {
    stages: { fetch: stage('done'), correlate: stage(status === 'running' ? 'running' : 'done'), publish: stage(status === 'running' ? 'pending' : 'done') },
    connections: [
      { id: 1, name: 'Falcon', adapter: 'crowdstrike', state: 'done', records: 1200, by_entity: { device: 1200 }, warnings: [], warning_count: 0, error: '', started_at: null, finished_at: null, duration_ms: 2300 },
      { id: 2, name: 'CMDB export', adapter: 'csvfile', state: 'warning', records: 310, by_entity: { device: 310 }, warnings: ['line 17: unterminated quote, skipped'], warning_count: 1, error: '', started_at: null, finished_at: null, duration_ms: 400 },
      { id: 3, name: 'Okta', adapter: 'okta', state: 'error', records: 0, by_entity: {}, warnings: [], warning_count: 0, error: 'HTTP 401 from /api/v1/users', started_at: null, finished_at: null, duration_ms: 90 },
    ],
    assets: { device: 1340 },
  },
  ...extra,
});

beforeEach(() => {
  signInWith(['discoveries.view_discovery', 'discoveries.start_discovery', 'users.view_system_information']);
});
afterEach(() => vi.unstubAllGlobals());

describe('discoveries in the console', () => {
  it('derives running, completed, failed and non-failed lists, and sets a discovery as spec §4 says', () => {
    const list = [discovery(3, 'running'), discovery(2, 'done'), discovery(1, 'error')];
    const lists = discoveryLists(list);
    expect([lists.running, lists.completed, lists.failed, lists.nonFailed].map((part) => part.map((item) => item.id))).toEqual([[3], [2], [1], [3, 2]]);
    expect(lists.latestCompleted?.id).toBe(2);
    expect(lists.last?.id).toBe(3);
    expect(withDiscovery(list, discovery(3, 'done')).map((item) => [item.id, item.status])).toEqual([[3, 'done'], [2, 'done'], [1, 'error']]);
    expect(withDiscovery(list, discovery(4, 'running')).map((item) => item.id)).toEqual([4, 3, 2, 1]);
  });

  it('polls the last discovery every 1500 ms only while it runs, and system information at 5000 ms or 45,000,000 ms', () => {
    const interval = lastDiscoveryQuery().refetchInterval as (query: { state: { data: unknown } }) => number | false;
    expect(interval({ state: { data: { status: 1 } } })).toBe(1500);
    expect(interval({ state: { data: { status: 2 } } })).toBe(false);
    expect(interval({ state: { data: null } })).toBe(false);
    expect(systemInformationQuery(true).refetchInterval).toBe(5000);
    expect(systemInformationQuery(false).refetchInterval).toBe(systemPollMs.normal);
    expect(systemPollMs.normal).toBe(45_000_000);
  });

  it('shows the last discovery and totals, and starts a new discovery on request', async () => {
    const calls = serveApi({
      'GET /discoveries/last': { body: { ...discovery(2, 'done'), status: 2, state: 'done' } },
      'GET /discoveries/discoveries': { body: { count: 3, next: null, previous: null, results: [discovery(2, 'done'), discovery(1, 'error'), discovery(0, 'done', { pruned_at: '2026-11-21T10:00:00Z' })] } },
      'POST /discoveries/discoveries': { status: 202, body: discovery(3, 'running') },
    });
    renderPage(Discoveries, '/discoveries', '/discoveries');
    await screen.findAllByRole('link', { name: '#2' });
    // A discovery whose snapshot was pruned says so; its row (and summary) stay.
    expect(screen.getAllByText('Pruned')).toHaveLength(1);
    expect(calls.find((call) => call.url.startsWith('/discoveries/discoveries'))?.url).toContain('size=10000');
    fireEvent.click(screen.getByRole('button', { name: 'Start discovery' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
  });

  it('shows each connection\'s records, warnings and errors, the stages, and the system information', async () => {
    serveApi({
      'GET /discoveries/discoveries/5': { body: discovery(5, 'running') },
      'GET /configurations/system': { body: { cpu: { model: 'x', cores: 2, load_average: [0.5, 0.4, 0.3] }, memory: { total: 8 * 1024 ** 3, free: 4 * 1024 ** 3, used: 4 * 1024 ** 3, process_rss: 1024 ** 3 }, disk: null, uptime: { system_seconds: 1, process_seconds: 1 }, versions: { cartograph: '0.1.0' }, database: { engine: 'pglite', version: 'PostgreSQL 17.5 on x' } } },
    });
    renderPage(DiscoveryDetail, '/discovery/detail/$discoveryId', '/discovery/detail/5');
    await screen.findByRole('heading', { name: 'Discovery #5' });
    expect(screen.getByText('HTTP 401 from /api/v1/users')).toBeTruthy();
    expect(screen.getByText('1 warning')).toBeTruthy();
    expect(screen.getByText('Normalize and correlate')).toBeTruthy();
    await screen.findByText(/2 cores/);
    expect(screen.getByText('pglite PostgreSQL 17.5')).toBeTruthy();
  });

  it('lists the stages in the order they run, whatever order the stored progress has', async () => {
    const stored = discovery(6, 'done');
    const { fetch, correlate, publish } = stored.progress.stages!;
    serveApi({ 'GET /discoveries/discoveries/6': { body: { ...stored, progress: { ...stored.progress, stages: { fetch, publish, correlate } } } } });
    renderPage(DiscoveryDetail, '/discovery/detail/$discoveryId', '/discovery/detail/6');
    await screen.findByRole('heading', { name: 'Discovery #6' });
    const stages = screen.getAllByRole('listitem').map((item) => item.textContent ?? '').filter((text) => /Fetch|Normalize|Publish/.test(text));
    expect(stages.map((text) => text.split(/Done|Running|Waiting/)[0])).toEqual(['Fetch every connection', 'Normalize and correlate', 'Publish the snapshot']);
  });

  it('offers the demo data set on an empty inventory and loads it on request', async () => {
    const calls = serveApi({
      'GET /discoveries/last': { status: 404, body: { detail: 'Not found.' } },
      'GET /discoveries/discoveries': { body: { count: 0, next: null, previous: null, results: [] } },
      'GET /discoveries/demo': { body: { available: true } },
      'POST /discoveries/demo': { status: 202, body: discovery(1, 'running') },
    });
    renderPage(Discoveries, '/discoveries', '/discoveries');
    fireEvent.click(await screen.findByRole('button', { name: 'Load demo data' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST' && call.url === '/discoveries/demo')).toBe(true));
  });
});
