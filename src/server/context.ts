import type { AdapterRuntime } from './adapters/runtime.js';
import type { ServerConfig } from './config.js';
import type { DiscoveryRunner } from './discovery/runner.js';
import type { Database } from './db/database.js';
import type { ServerKeys } from './auth/serverKeys.js';

/** What every part of the server is given: the database, the keys and the configuration. */
export type AppContext = {
  db: Database;
  keys: ServerKeys;
  config: ServerConfig;
  version: string;
  adapters: AdapterRuntime;
  discoveries: DiscoveryRunner;
};

/** Everything but the discovery runner, which is built from it. */
export type CoreContext = Omit<AppContext, 'discoveries'>;
