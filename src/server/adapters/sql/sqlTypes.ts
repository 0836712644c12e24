import { rootCertificates } from 'node:tls';
import type { ConnectivityFailureReason, EntityKind } from '../engine.js';

export type SqlDialect = 'postgresql' | 'mysql' | 'sqlserver';
export type TlsMode = 'require' | 'prefer' | 'disable';

export type SqlConfig = {
  dialect: SqlDialect;
  host: string;
  port?: number;
  database: string;
  auth: { username: string; password: string };
  queries: { entity: EntityKind; query: string }[];
  tls_mode?: TlsMode;
  verify_ssl?: boolean;
  custom_ca?: string;
  timeout_seconds?: number;
  statement_timeout_seconds?: number;
};

/** Rows as the driver hands them over, a batch at a time, with the column names in order. */
export type RowBatches = AsyncIterable<{ columns: string[]; rows: Record<string, unknown>[] }>;

/** One open database session: runs reading queries inside a single read-only transaction. */
export type SqlSession = {
  /** Streams the rows of `query` in batches of `batchSize`, never holding the whole result. */
  rows: (query: string, batchSize: number) => RowBatches;
  /** Checks that a query compiles and may be read (runs it with no rows wanted). */
  probe: (query: string) => Promise<void>;
  close: () => Promise<void>;
};

/** A database failure with the connectivity reason it stands for. */
export class SqlFailure extends Error {
  constructor(
    readonly reason: ConnectivityFailureReason,
    message: string,
  ) {
    super(message);
  }
}

export const defaultPorts: Record<SqlDialect, number> = { postgresql: 5432, mysql: 3306, sqlserver: 1433 };

/** TLS options for the drivers: verification as the network settings say, with the custom CA trusted too. */
export function tlsOptions(config: SqlConfig): { rejectUnauthorized: boolean; ca?: string[] } {
  return { rejectUnauthorized: config.verify_ssl !== false, ...(config.custom_ca && { ca: [...rootCertificates, config.custom_ca] }) };
}

/**
 * Connects as `tls_mode` says: "disable" in the clear, "require" over TLS only, and "prefer" over TLS when the server
 * offers it, otherwise in the clear. `noTlsOnServer` tells the driver's "server has no TLS" error from any other.
 */
export async function connectByTlsMode<Connection>(
  mode: TlsMode,
  connect: (tls: boolean) => Promise<Connection>,
  noTlsOnServer: (error: unknown) => boolean,
): Promise<Connection> {
  try {
    return await connect(mode !== 'disable');
  } catch (error) {
    if (mode !== 'prefer' || !noTlsOnServer(error)) throw error;
    return connect(false);
  }
}

/**
 * A driver value as a field value: large integers stay exact (as text) unless they fit a number, binary becomes
 * hex, and values that are objects only to the driver (intervals, points) become their text.
 */
export function plainValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (Buffer.isBuffer(value)) return value.toString('hex');
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (Array.isArray(value)) return value.map(plainValue);
  if (typeof value === 'object') {
    const candidate = value as { toPostgres?: () => string; toISOString?: () => string };
    if (typeof candidate.toISOString === 'function') return candidate.toISOString();
    if (typeof candidate.toPostgres === 'function') return candidate.toPostgres();
  }
  return value;
}
