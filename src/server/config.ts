import { hostname } from 'node:os';
import { resolve } from 'node:path';

export type ServerConfig = {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | null;
  adminUsername: string;
  adminPassword: string | null;
  secretKey: string | null;
  accessTokenTtlSeconds: number;
  passwordExpiryDays: number;
  signInRateLimitPerMinute: number;
  logLevel: string;
  /** Whether this process runs discovery steps (an API-only process leaves them to `npm run worker` processes). */
  runDiscoveries: boolean;
  /** Connection fetches this process runs at once (each discovery also keeps to its own concurrency setting). */
  fetchLanes: number;
  /** How long a remote connector's lease call is held open waiting for a job (long poll) before it answers none. */
  connectorLeaseWaitSeconds: number;
  /** How long a connection test run on a remote connector is waited for before the console is told it did not answer. */
  connectorTestWaitSeconds: number;
  /** The console's address as people reach it (no trailing slash): links in e-mails (a report too large to attach). */
  publicUrl: string;
  /** Wait for an SMTP server to connect and greet; a conversation silent for four times as long is dropped. */
  smtpTimeoutSeconds: number;
  /** First wait before a failed report delivery is tried again (pg-boss doubles it for each of the three tries). */
  reportRetrySeconds: number;
  /**
   * How long an action run may go without its process saying it is alive before another process takes it over (or
   * fails it); the process says so several times within this.
   */
  actionRunStaleSeconds: number;
  /**
   * Whether outbound calls (adapters, mail, webhooks, SSO, feeds) may reach loopback addresses of this machine
   * (CARTOGRAPH_OUTBOUND_ALLOW_LOOPBACK=1). Off by default: a connection could otherwise reach services that trust
   * anything local. Link-local and cloud-metadata addresses are refused whatever this says.
   */
  outboundAllowLoopback: boolean;
};

function booleanFrom(environment: NodeJS.ProcessEnv, name: string): boolean {
  const text = (environment[name] ?? '').trim().toLowerCase();
  if (text === '' || text === '0' || text === 'false' || text === 'no') return false;
  if (text === '1' || text === 'true' || text === 'yes') return true;
  throw new Error(`${name} must be 1 or 0, got "${environment[name]}"`);
}

function integerFrom(environment: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = environment[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${text}"`);
  return value;
}

/**
 * The console's public address: CARTOGRAPH_PUBLIC_URL, or else where it listens, a wildcard address (`0.0.0.0`,
 * `::`) read as this machine's name since it means nothing to the person who opens a link.
 */
function publicUrlFrom(environment: NodeJS.ProcessEnv, host: string, port: number): string {
  const text = environment.CARTOGRAPH_PUBLIC_URL;
  if (!text) {
    const name = host === '0.0.0.0' || host === '::' ? hostname() : host;
    return `http://${name.includes(':') ? `[${name}]` : name}:${port}`;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`CARTOGRAPH_PUBLIC_URL must be an http(s) URL, got "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`CARTOGRAPH_PUBLIC_URL must be an http(s) URL, got "${text}"`);
  return url.href.replace(/\/+$/, '');
}

/** Reads the configuration variables the README documents; a malformed value stops the start with its name. */
export function readConfig(environment: NodeJS.ProcessEnv = process.env): ServerConfig {
  // The embedded database belongs to this one process: no other process could run its discoveries.
  if (environment.CARTOGRAPH_RUN_DISCOVERIES === '0' && !environment.DATABASE_URL) throw new Error('CARTOGRAPH_RUN_DISCOVERIES=0 needs DATABASE_URL: discoveries then run in `npm run worker` processes on the same PostgreSQL.');
  const host = environment.HOST || '127.0.0.1';
  const port = integerFrom(environment, 'PORT', 8080);
  return {
    host,
    port,
    dataDir: resolve(environment.CARTOGRAPH_DATA_DIR || 'data'),
    databaseUrl: environment.DATABASE_URL || null,
    adminUsername: environment.CARTOGRAPH_ADMIN_USERNAME || 'admin',
    adminPassword: environment.CARTOGRAPH_ADMIN_PASSWORD || null,
    secretKey: environment.CARTOGRAPH_SECRET_KEY || null,
    accessTokenTtlSeconds: integerFrom(environment, 'CARTOGRAPH_TOKEN_TTL_SECONDS', 8 * 60 * 60),
    passwordExpiryDays: integerFrom(environment, 'CARTOGRAPH_PASSWORD_EXPIRY_DAYS', 90),
    signInRateLimitPerMinute: integerFrom(environment, 'CARTOGRAPH_SIGN_IN_RATE_LIMIT', 30),
    logLevel: environment.LOG_LEVEL || 'info',
    runDiscoveries: environment.CARTOGRAPH_RUN_DISCOVERIES !== '0',
    fetchLanes: Math.max(1, integerFrom(environment, 'CARTOGRAPH_FETCH_LANES', 4)),
    connectorLeaseWaitSeconds: Math.min(integerFrom(environment, 'CARTOGRAPH_CONNECTOR_LEASE_WAIT_SECONDS', 20), 50),
    connectorTestWaitSeconds: Math.max(1, integerFrom(environment, 'CARTOGRAPH_CONNECTOR_TEST_WAIT_SECONDS', 30)),
    publicUrl: publicUrlFrom(environment, host, port),
    smtpTimeoutSeconds: Math.max(1, integerFrom(environment, 'CARTOGRAPH_SMTP_TIMEOUT_SECONDS', 15)),
    reportRetrySeconds: Math.max(1, integerFrom(environment, 'CARTOGRAPH_REPORT_RETRY_SECONDS', 30)),
    actionRunStaleSeconds: Math.max(2, integerFrom(environment, 'CARTOGRAPH_ACTION_RUN_STALE_SECONDS', 60)),
    outboundAllowLoopback: booleanFrom(environment, 'CARTOGRAPH_OUTBOUND_ALLOW_LOOPBACK'),
  };
}
