// Bench of the declarative HTTP engine: 100k records over 200 pages from the local replay server, beside a bare
// loop of the same HTTP requests (undici fetch + JSON.parse) in the same run.
import { performance } from 'node:perf_hooks';
import { fetch } from 'undici';
import { fetchManifest } from '../../src/server/adapters/http/httpEngine.js';
import { loopbackAllowed } from '../support/outbound.js';
import { manifestErrors, type Manifest } from '../../src/server/adapters/http/manifest.js';
import { startReplayServer, type ReplayExchange } from '../support/replayServer.js';

const pages = 200;
const perPage = 500;

function device(index: number) {
  return {
    device_id: `aid-${index.toString(16).padStart(12, '0')}`,
    hostname: `WS-${index}`,
    local_ip: `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`,
    mac_address: `00-1a-2b-${((index >> 16) & 255).toString(16).padStart(2, '0')}-${((index >> 8) & 255).toString(16).padStart(2, '0')}-${(index & 255).toString(16).padStart(2, '0')}`,
    serial_number: `PF${index}`,
    platform_name: index % 3 ? 'Windows' : 'Linux',
    os_version: 'Windows 11',
    system_manufacturer: 'LENOVO',
    last_seen: '2024-03-14T12:00:00Z',
    tags: ['SensorGroupingTags/Finance'],
  };
}

function exchanges(): ReplayExchange[] {
  return Array.from({ length: pages }, (_, page) => ({
    request: { method: 'GET', path: '/devices', query: { offset: String(page * perPage) } },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: { total: pages * perPage, rows: Array.from({ length: perPage }, (_, index) => device(page * perPage + index)) } },
  }));
}

const benchManifest = {
  version: 1,
  base_url: '{{ config.base_url }}',
  auth: { type: 'bearer', token: '{{ config.token }}' },
  check: { request: { url: '/devices', query: { offset: 0 } } },
  streams: [{
    name: 'devices', entity: 'device',
    request: { url: '/devices', query: { offset: '{{ page.offset }}', limit: '{{ page.limit }}' } },
    paginator: { type: 'offset', limit: perPage, total: '{{ response.body.total }}' },
    records: '{{ response.body.rows }}',
    mapping: {
      Hostname: '{{ record.hostname }}', IpAddresses: '{{ record.local_ip }}', MacAddresses: '{{ record.mac_address | mac }}', SerialNumber: '{{ record.serial_number }}',
      'OS.Type': '{{ record.platform_name }}', 'OS.Version': '{{ record.os_version }}', DeviceManufacturer: '{{ record.system_manufacturer }}', AgentId: '{{ record.device_id }}',
      Tags: '{{ record.tags }}', LastSeen: '{{ record.last_seen | date }}',
    },
  }],
} as Manifest;

/** Runs `work` while sampling the resident set size; answers its duration and the peak RSS seen. */
async function measure(work: () => Promise<number>): Promise<{ records: number; seconds: number; peak_rss_mb: number }> {
  // process.memoryUsage.rss() is the cheap call; the full memoryUsage() would slow the measured loop down.
  let peak = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  const started = performance.now();
  const records = await work();
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  return { records, seconds: Number(seconds.toFixed(3)), peak_rss_mb: Number((peak / 2 ** 20).toFixed(1)) };
}

export async function benchHttpEngine() {
  const errors = manifestErrors(benchManifest);
  if (errors.length) throw new Error(`bench manifest invalid: ${errors.join('; ')}`);
  const server = await startReplayServer(exchanges());
  const rssBefore = process.memoryUsage.rss();
  try {
    const engine = () =>
      measure(async () => {
        let count = 0;
        const context = { adapter: 'bench', config: { base_url: server.url, token: 'bench' }, signal: AbortSignal.timeout(600_000), warn: () => undefined, outbound: loopbackAllowed };
        for await (const record of fetchManifest(benchManifest, context)) if (record.fields.Hostname) count += 1;
        return count;
      });
    const bare = () =>
      measure(async () => {
        let count = 0;
        for (let page = 0; page < pages; page += 1) {
          const response = await fetch(`${server.url}/devices?offset=${page * perPage}&limit=${perPage}`, { headers: { authorization: 'Bearer bench', accept: 'application/json' } });
          const body = JSON.parse(await response.text()) as { rows: unknown[] };
          count += body.rows.length;
        }
        return count;
      });
    // Warm both paths once (JIT, the replay server's encoded pages), then alternate three rounds and keep each
    // path's best time, so a burst of load from other processes does not decide the comparison.
    await bare();
    await engine();
    const bareRuns: Awaited<ReturnType<typeof bare>>[] = [];
    const engineRuns: Awaited<ReturnType<typeof engine>>[] = [];
    for (let round = 0; round < 3; round += 1) {
      bareRuns.push(await bare());
      engineRuns.push(await engine());
    }
    const best = (runs: typeof bareRuns) => ({ ...runs.reduce((left, right) => (right.seconds < left.seconds ? right : left)), peak_rss_mb: Math.max(...runs.map((run) => run.peak_rss_mb)) });
    const bareLoop = best(bareRuns);
    const engineRun = best(engineRuns);
    const rate = (run: { records: number; seconds: number }) => Math.round(run.records / run.seconds);
    return {
      pages,
      records: pages * perPage,
      // The replay server runs in this process, so RSS includes its 100k pre-encoded records for both paths.
      rss_before_mb: Number((rssBefore / 2 ** 20).toFixed(1)),
      engine: { ...engineRun, records_per_second: rate(engineRun), all_seconds: engineRuns.map((run) => run.seconds) },
      bare_fetch_baseline: { ...bareLoop, records_per_second: rate(bareLoop), all_seconds: bareRuns.map((run) => run.seconds) },
      engine_time_ratio: Number((engineRun.seconds / bareLoop.seconds).toFixed(2)),
    };
  } finally {
    await server.close();
  }
}

// `npx tsx tests/bench/httpEngine.ts` runs this bench alone.
if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(`${JSON.stringify(await benchHttpEngine(), null, 2)}\n`);
