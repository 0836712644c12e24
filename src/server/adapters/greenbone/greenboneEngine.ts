// The Greenbone engine: hosts and findings from gvmd over GMP (XML over TLS, not HTTP, so the declarative engine
// cannot reach it). Host assets become devices; the results of each task's last finished report become findings.
import type { AdapterEngine, ConnectivityResult, FetchContext, FetchedRecord } from '../engine.js';
import { assetListElements, deviceRecord, filteredCount, findingRecord, lastReportIds, resultListElements, taskListElements } from './gmpRecords.js';
import { GmpFailure, openGmpSession, xmlText, type GmpSession, type GmpSettings } from './gmpSession.js';

type GreenboneConfig = {
  host?: string;
  port?: number;
  auth?: { username?: string; password?: string };
  min_qod?: number;
  verify_ssl?: boolean;
  custom_ca?: string;
  timeout_seconds?: number;
};

// Rows per GMP page: large enough for few round trips, small enough to bound one answer's size.
const assetsPerPage = 500;
const resultsPerPage = 500;

function settingsOf(raw: Record<string, unknown>): GmpSettings {
  const config = raw as GreenboneConfig;
  if (!config.host?.trim()) throw new GmpFailure('invalid_config', 'The GMP host is missing.');
  if (!config.auth?.username || !config.auth.password) throw new GmpFailure('invalid_config', 'The GVM username and password are required.');
  return {
    host: config.host.trim(),
    port: config.port ?? 9390,
    username: config.auth.username,
    password: config.auth.password,
    verifySsl: config.verify_ssl ?? true,
    customCa: config.custom_ca || undefined,
    timeoutMs: (config.timeout_seconds ?? 60) * 1000,
  };
}

/**
 * Pages through a GMP list command with `first`/`rows` in its filter until the filtered count is reached.
 * Before: `get_assets`, `type="host"`, 500 rows; after: each page's list of `<asset>` elements, in order.
 */
async function* pages(session: GmpSession, command: string, attributes: string, filter: string, rows: number, list: string, count: string, listElements: readonly string[]): AsyncGenerator<Record<string, unknown>[]> {
  // gvmd may answer fewer rows than asked (its users' "Rows Per Page" cap): the next page starts after what came.
  for (let first = 1; ; ) {
    const response = await session.command(`<${command}${attributes} filter="${xmlText(`${filter} first=${first} rows=${rows}`)}"/>`, `${command}_response`, listElements);
    const items = (response[list] ?? []) as Record<string, unknown>[];
    if (items.length) yield items;
    if (!items.length || first + items.length - 1 >= filteredCount(response[count])) return;
    first += items.length;
  }
}

export async function* fetchGreenbone(context: FetchContext): AsyncGenerator<FetchedRecord> {
  const settings = settingsOf(context.config);
  const minimumQod = (context.config as GreenboneConfig).min_qod ?? 70;
  const session = await openGmpSession(settings, context.outbound, context.signal);
  try {
    for await (const assets of pages(session, 'get_assets', ' type="host"', 'sort=name', assetsPerPage, 'asset', 'asset_count', assetListElements)) {
      for (const asset of assets) yield deviceRecord(asset);
    }
    // The findings as of each task's latest finished scan: older reports would repeat what was since fixed.
    const tasks = await session.command('<get_tasks filter="rows=-1"/>', 'get_tasks_response', taskListElements);
    for (const reportId of lastReportIds(tasks.task)) {
      const filter = `report_id=${reportId} apply_overrides=1 min_qod=${minimumQod} severity>0 sort=host`;
      for await (const results of pages(session, 'get_results', '', filter, resultsPerPage, 'result', 'result_count', resultListElements)) {
        for (const result of results) yield findingRecord(result);
      }
    }
  } catch (error) {
    if (error instanceof GmpFailure) throw new Error(error.message, { cause: error });
    throw error;
  } finally {
    session.close();
  }
}

/** Connects, authenticates and reads one host asset. */
export async function testGreenbone(context: Omit<FetchContext, 'warn'>): Promise<ConnectivityResult> {
  let session: GmpSession | null = null;
  try {
    const settings = settingsOf(context.config);
    session = await openGmpSession(settings, context.outbound, context.signal);
    const response = await session.command('<get_assets type="host" filter="first=1 rows=1"/>', 'get_assets_response', assetListElements);
    return { ok: true, detail: `Signed in to gvmd on ${settings.host}:${settings.port}; ${filteredCount(response.asset_count)} host assets.` };
  } catch (error) {
    if (error instanceof GmpFailure) return { ok: false, reason: error.reason, detail: error.message };
    return { ok: false, reason: 'protocol', detail: (error as Error).message };
  } finally {
    session?.close();
  }
}

export const greenboneEngine: AdapterEngine = {
  name: 'gmp',
  test: (context) => testGreenbone(context),
  fetch: (context) => fetchGreenbone(context),
};
