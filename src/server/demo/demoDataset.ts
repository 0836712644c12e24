import type { AppContext } from '../context.js';
import { logSystemEvent } from '../activities/activityLog.js';
import { Conflict, detailBody } from '../errors.js';
import { addStarterQueries } from '../query/starterQueries.js';
import { ensureStarterPolicy } from '../security/starterPolicies.js';
import { writeDemoCsvExports, type DemoExportSummary } from './csvExports.js';
import { importDemoAdvisories } from './demoAdvisories.js';

/** The demo is offered only to a company with nothing yet: no connection and no discovery. */
export async function demoAvailable(context: AppContext, companyId: number): Promise<boolean> {
  const [row] = await context.db.query<{ used: boolean }>(
    'select exists (select 1 from connections where company_id = $1) or exists (select 1 from discoveries where company_id = $1) as used',
    [companyId],
  );
  return !row.used;
}

/**
 * Loads the demo data set into an empty company — about 2,000 devices and 1,000 people as five sources' CSV
 * exports, read through the real CSV file adapter, and the OSV advisories bundled for its Linux servers' packages
 * (demoAdvisories.ts) — and starts the first discovery. Answers its id.
 */
export async function loadDemoDataset(context: AppContext, companyId: number, userId: number | null): Promise<{ discoveryId: number; exports: DemoExportSummary[] }> {
  if (!(await demoAvailable(context, companyId))) throw new Conflict(detailBody('The demo data set loads only into an empty inventory (no connections, no discoveries).', 'demo_unavailable'));
  const exports = await writeDemoCsvExports(context, companyId);
  // The HR export's leavers whose directory account is still enabled are what the starter policy "Leavers with an
  // active account" (a user policy) lists: switched on, the first discovery finds them. The same condition ships as a
  // starter saved query of the user inventory.
  await ensureStarterPolicy(context.db, companyId, 'cis-5.3-leavers-active-account', true);
  await addStarterQueries(context.db, companyId, null);
  // The servers' packages are matched by their distribution's advisories in the first discovery already.
  await importDemoAdvisories(context.db);
  const discoveryId = await context.discoveries.startDiscovery(companyId, userId, 'manual');
  await logSystemEvent(context.db, 'info', 'demo_loaded', `Demo data set loaded (${exports.length} CSV exports); discovery ${discoveryId} started`);
  return { discoveryId, exports };
}

/** `CARTOGRAPH_DEMO=1` at start: loads the demo into the provider company when its inventory is empty. */
export async function loadDemoOnStart(context: AppContext, environment: NodeJS.ProcessEnv = process.env): Promise<number | null> {
  if (environment.CARTOGRAPH_DEMO !== '1') return null;
  const [provider] = await context.db.query<{ id: number }>('select id from companies where is_constant order by id limit 1');
  if (!provider || !(await demoAvailable(context, provider.id))) return null;
  return (await loadDemoDataset(context, provider.id, null)).discoveryId;
}
