import { promises as dnsPromises } from 'node:dns';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { logSystemEvent } from './activities/activityLog.js';
import { attachActivityForwarder, detachActivityForwarder } from './activities/activityForwarder.js';
import { outboundPolicyFor } from './outbound/policy.js';
import { fetchEngines } from './adapters/engines.js';
import { createAdapterRuntime, type AdapterRuntime } from './adapters/runtime.js';
import { DiscoveryRunner } from './discovery/runner.js';
import { JobBus } from './jobs/jobBus.js';
import { registerQueueWorkers } from './jobs/queueWorkers.js';
import { publishedSubscribers, queueWorkers } from './subscribers.js';
import { loadDemoOnStart } from './demo/demoDataset.js';
import { loadServerKeys } from './auth/serverKeys.js';
import type { ServerConfig } from './config.js';
import type { AppContext, CoreContext, TxtResolver } from './context.js';
import type { Database } from './db/database.js';
import { migrate } from './db/migrate.js';
import { openPgliteDatabase } from './db/pgliteDatabase.js';
import { openPostgresDatabase } from './db/postgresDatabase.js';
import { buildApp, type AppOptions, type CartographApp } from './http/app.js';
import { bootstrapIdentity, type FirstAdministrator } from './identity/bootstrap.js';
import { ensureDefaultDashboards } from './dashboards/defaultDashboard.js';
import { ensureLifecycleFeed } from './lifecycle/osLifecycle.js';

const packageFile = fileURLToPath(new URL('../../package.json', import.meta.url));
export const cartographVersion: string = JSON.parse(readFileSync(packageFile, 'utf8')).version;

/** PostgreSQL when DATABASE_URL is set, otherwise the embedded PGlite in the data folder. */
export function openDatabase(config: ServerConfig): Promise<Database> {
  return config.databaseUrl ? openPostgresDatabase(config.databaseUrl) : openPgliteDatabase(`${config.dataDir}/pglite`);
}

export type RunningCartograph = { app: CartographApp; context: AppContext; discoveries: DiscoveryRunner; firstAdministrator: FirstAdministrator | null; close: () => Promise<void> };

/** Opens the database, migrates, bootstraps identity and builds the app (listening is the caller's choice). */
export async function startCartograph(config: ServerConfig, options: AppOptions & { database?: Database; adapters?: AdapterRuntime; resolveTxt?: TxtResolver } = {}): Promise<RunningCartograph> {
  const db = options.database ?? (await openDatabase(config));
  try {
    const applied = await migrate(db);
    const jobs = new JobBus(db, config.databaseUrl, (error: Error) => void logSystemEvent(db, 'error', 'job_queue_error', error.message).catch(() => undefined));
    const core: CoreContext = {
      db, jobs, keys: loadServerKeys(config.secretKey, config.dataDir), config, version: cartographVersion, adapters: options.adapters ?? createAdapterRuntime(fetchEngines),
      resolveTxt: options.resolveTxt ?? ((hostname) => dnsPromises.resolveTxt(hostname)),
    };
    // Each area registers its queues with the job bus: the discovery's own, then reports, actions, mail, feeds, ….
    const discoveries = new DiscoveryRunner(core, jobs, publishedSubscribers);
    registerQueueWorkers(jobs, core, queueWorkers);
    const context: AppContext = { ...core, discoveries };
    let appLog: { error: (detail: object, message: string) => void } | null = null;
    // Every activity and system event from here on also goes to the company's syslog receiver, when it has one.
    attachActivityForwarder(db, (companyId) => outboundPolicyFor(db, config, companyId), { error: (detail, message) => appLog?.error(detail, message) });
    const firstAdministrator = await bootstrapIdentity(context, process.env.CARTOGRAPH_COMPANY_NAME || 'Cartograph');
    // Every company opens on a useful dashboard, including companies that existed before dashboards did.
    await ensureDefaultDashboards(db);
    // Every install knows its operating systems' end of life from the first discovery, before any feed download.
    await ensureLifecycleFeed(db);
    if (applied.length) await logSystemEvent(db, 'info', 'migrations_applied', `Applied ${applied.join(', ')}`);
    await logSystemEvent(db, 'info', 'server_started', `Cartograph ${cartographVersion} started on ${db.engine}`);
    const app = await buildApp(context, options);
    appLog = app.log;
    await jobs.start({ work: config.runDiscoveries });
    // CARTOGRAPH_DEMO=1 on an empty inventory: load the demo data set and run the first discovery.
    await loadDemoOnStart(context);
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      await app.close();
      discoveries.stop();
      await jobs.stop();
      await detachActivityForwarder(db);
      await db.close();
    };
    return { app, context, discoveries, firstAdministrator, close };
  } catch (error) {
    await detachActivityForwarder(db);
    await db.close();
    throw error;
  }
}
