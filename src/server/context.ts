import type { AdapterRuntime } from './adapters/runtime.js';
import type { ServerConfig } from './config.js';
import type { Database } from './db/database.js';
import type { ServerKeys } from './auth/serverKeys.js';
import type { JobBus } from './jobs/jobBus.js';

/** Looks up a name's TXT records (node:dns's resolveTxt: each record as its chunks of at most 255 characters). */
export type TxtResolver = (hostname: string) => Promise<string[][]>;

/** What every part of the server is given: the database, the keys and the configuration. */
export type AppContext = {
  db: Database;
  keys: ServerKeys;
  config: ServerConfig;
  version: string;
  adapters: AdapterRuntime;
  /** DNS TXT look-ups, for domain verification; tests give a resolver of their own (there is no network). */
  resolveTxt: TxtResolver;
  /** The job bus (pg-boss): every area sends its jobs here and registers its own queues (src/server/jobs/jobBus.ts). */
  jobs: JobBus;
  discoveries: DiscoveryStarter;
};

/**
 * Starting a company's discovery, which discovery/runner.ts does; named here by what callers need so the context
 * does not depend on the runner (which depends on the context).
 */
export type DiscoveryStarter = { startDiscovery(companyId: number, userId: number | null, trigger: 'manual' | 'schedule'): Promise<number> };

/** Everything but the discovery runner, which is built from it. */
export type CoreContext = Omit<AppContext, 'discoveries'>;
