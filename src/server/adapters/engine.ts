import type { OutboundPolicy } from '../outbound/guard.js';

/**
 * The kinds of inventory record an adapter can produce. `software` is one installed software on one device and
 * `vulnerability` one finding on one device (fields in src/server/adapters/http/README.md); `application` is the
 * catalogue's name for the software category (spec §3), kept for the adapter catalogue's categories.
 */
export type EntityKind = 'device' | 'user' | 'software' | 'vulnerability' | 'application' | 'certificate' | 'service' | 'license';

/**
 * One record as an engine hands it over: entity fields under Cartograph's merged field names (dotted keys,
 * e.g. `Hostname`, `OS.Type`, `IpAddresses`, `Username`), and the vendor's record untouched in `raw`
 * (the pipeline stores it under `Specifics.<adapter slug>`).
 */
export type FetchedRecord = { entity: EntityKind; fields: Record<string, unknown>; raw: unknown };

/** Why a connectivity check failed, precise enough to tell an administrator what to fix. */
export type ConnectivityFailureReason = 'invalid_config' | 'dns' | 'refused' | 'tls' | 'timeout' | 'unauthorized' | 'forbidden' | 'http' | 'protocol';

export type ConnectivityResult = { ok: true; detail: string } | { ok: false; reason: ConnectivityFailureReason; detail: string };

/** Decrypted connection options (the adapter's connection.schema.json object). Never log it. */
export type ConnectionConfig = Record<string, unknown>;

export type FetchContext = {
  /** The adapter slug, e.g. `crowdstrike`. */
  adapter: string;
  config: ConnectionConfig;
  /** Aborted when the discovery is cancelled or times out: stop promptly. */
  signal: AbortSignal;
  /** A problem that did not stop the fetch (a skipped malformed line, a truncated page): shown on the connection. */
  warn: (message: string) => void;
  /** Where this company's calls may go: every connection the engine opens passes the outbound guard with it. */
  outbound: OutboundPolicy;
};

/** A fetch engine: the declarative HTTP engine, or a code engine (files, SQL, LDAP, scanners). */
export type AdapterEngine = {
  name: string;
  /** Checks that the configured system answers and accepts the credentials; never throws. */
  test: (context: Omit<FetchContext, 'warn'>) => Promise<ConnectivityResult>;
  /** Streams the records; throws when the fetch as a whole fails. */
  fetch: (context: FetchContext) => AsyncIterable<FetchedRecord>;
};
