import type { AdapterEngine } from './engine.js';
import { createFileEngines } from './files/fileEngines.js';
import { createHttpEngine } from './http/httpEngine.js';
import { greenboneEngine } from './greenbone/greenboneEngine.js';
import { createSqlEngine } from './sql/sqlEngine.js';
import { sqlViewsEngine } from './sql/sqlViewsEngine.js';
import { ldapEngine } from './ldap/ldapEngine.js';
import { networkScannerEngine } from './scanners/networkScanner.js';
import { tlsScannerEngine } from './scanners/tlsScanner.js';

/** Every fetch engine by the name adapter.json uses in its `engine` field. */
export const fetchEngines: Record<string, AdapterEngine> = {
  http: createHttpEngine(),
  ...createFileEngines(),
  sql: createSqlEngine(),
  'sql-views': sqlViewsEngine,
  ldap: ldapEngine,
  'network-scanner': networkScannerEngine,
  'tls-scanner': tlsScannerEngine,
  gmp: greenboneEngine,
};
