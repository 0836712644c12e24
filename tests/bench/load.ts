// The API under load for `npm run bench`: 50 concurrent clients for 60 s against the real server on a loopback port,
// mixing device searches (filters, sorts, pages), device details and dashboard loads over a 100k-device discovery
// on PostgreSQL, beside the same load on the unauthenticated ping endpoint (the HTTP stack alone) in the same run.
import autocannon, { type Request } from 'autocannon';
import type { RunningCartograph } from '../../src/server/server.js';
import { addReplayConnections, discover, startOn } from './discovery.js';

const devices = Number(process.env.BENCH_LOAD_DEVICES) || 100_000;
const seconds = Number(process.env.BENCH_LOAD_SECONDS) || 60;
const connections = 50;

const searches = [
  { query: 'OS.Type = Windows AND AdapterCount >= 2', ordering: [{ field: 'Hostname', order: 'desc' }] },
  { query: 'LastSeen last now-7d', ordering: [{ field: 'LastSeen', order: 'desc' }] },
  { query: 'Hostname = lt-*', ordering: [{ field: 'Hostname' }] },
  { query: 'Adapters = crowdstrike AND NOT Adapters = intune', ordering: [] },
  { query: '', ordering: [{ field: 'Hostname' }] },
];

/** The requests each client cycles through: searches on several pages, details of listed devices, the dashboard. */
async function requestMix(running: RunningCartograph, token: string): Promise<Request[]> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const listed = await running.app.inject({ method: 'POST', url: '/devices/devices', headers, payload: { size: 20, fields: ['Hostname'] } });
  const ids: string[] = listed.json().results.map((asset: { PrimaryKey: string[] }) => asset.PrimaryKey[0]);
  const dashboards = (await running.app.inject({ method: 'GET', url: '/dashboards/dashboards?size=1', headers })).json().results;
  const search = (index: number): Request => ({
    method: 'POST', path: '/devices/devices', headers,
    body: JSON.stringify({ ...searches[index % searches.length], fields: ['Hostname', 'OS.Type', 'Adapters', 'LastSeen'], size: 50, page: 1 + (index % 7) }),
  });
  return [
    ...Array.from({ length: 10 }, (_, index) => search(index)),
    ...ids.slice(0, 6).map((id): Request => ({ method: 'POST', path: `/devices/devices/${id}`, headers, body: '{}' })),
    ...dashboards.map((dashboard: { id: number }): Request => ({ method: 'GET', path: `/dashboards/dashboards/${dashboard.id}/data`, headers })),
  ];
}

function figures(result: autocannon.Result) {
  return {
    requests: result.requests.total, requests_per_s: Math.round(result.requests.average), latency_p50_ms: result.latency.p50, latency_p99_ms: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** One load run against the listening server. */
function load(url: string, duration: number, requests?: Request[]): Promise<autocannon.Result> {
  return autocannon({ url, connections, duration, ...(requests && { requests }) });
}

export async function benchLoad() {
  if (!process.env.DATABASE_URL) return null;
  const { running, token, replay, stop } = await startOn('postgresql', devices);
  try {
    await addReplayConnections(running, replay.url);
    await discover(running, token);
    const address = await running.app.listen({ host: '127.0.0.1', port: 0 });
    const mix = await requestMix(running, token);
    const api = await load(address, seconds, mix);
    const ping = await load(`${address}/api/ping`, Math.min(seconds, 15));
    return { engine: 'postgresql', devices, connections, seconds, requests_in_mix: mix.length, api: figures(api), ping_baseline: figures(ping) };
  } finally {
    await stop();
  }
}

// `tsx tests/bench/load.ts` runs this figure alone (BENCH_LOAD_DEVICES and BENCH_LOAD_SECONDS shorten it).
if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(`${JSON.stringify(await benchLoad(), null, 2)}\n`);
