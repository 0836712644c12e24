import { logSystemEvent, type SystemLogLevel } from '../activities/activityLog.js';
import type { Queryable } from '../db/database.js';

export type LoggedConnector = { id: number; company_id: number; name: string };

/**
 * Writes a connector's event to the system log (`/activities/system`), naming its company so the event also goes to
 * that company's syslog receiver. Never throws: a log write that fails must not fail the connector's call.
 */
export async function logConnectorEvent(
  db: Queryable, level: SystemLogLevel, event: string, connector: LoggedConnector, message: string, detail: Record<string, string | number | boolean> = {},
): Promise<void> {
  await logSystemEvent(db, level, event, `Connector "${connector.name}": ${message}`.slice(0, 2000), {
    company_id: connector.company_id, connector_id: connector.id, connector: connector.name, ...detail,
  }).catch(() => undefined);
}

/** How often a refused token of one connector (or one source address) is written to the log at most. */
export const refusalLogSeconds = 600;
const refusalKeysKept = 1000;

/**
 * Decides which refused connector calls reach the system log: the first of each connector (or, for tokens naming
 * no connector, of each source address) per window, with the count of those left out since. A misconfigured
 * connector retries every few seconds forever; one line per ten minutes says as much without flooding the log.
 */
export class RefusalLog {
  private readonly windows = new Map<string, { loggedAt: number; suppressed: number }>();

  constructor(private readonly windowMilliseconds = refusalLogSeconds * 1000) {}

  /** Null when this refusal is not to be logged; otherwise how many refusals of the key were left out before it. */
  admit(key: string, now = Date.now()): number | null {
    const window = this.windows.get(key);
    if (window && now - window.loggedAt < this.windowMilliseconds) {
      window.suppressed += 1;
      return null;
    }
    // Bounded: a stream of tokens naming ever new connector ids or addresses cannot grow this without end.
    if (!window && this.windows.size >= refusalKeysKept) this.windows.delete(this.windows.keys().next().value!);
    this.windows.delete(key);
    this.windows.set(key, { loggedAt: now, suppressed: 0 });
    return window?.suppressed ?? 0;
  }
}
