import type { CustomAdapterDefinition } from '../server/adapters/custom/customEngine.js';
import { Agent, request, type Dispatcher } from 'undici';

/** The server refused the connector's token: revoked, replaced or mistyped. Polling again cannot help. */
export class TokenRefusedError extends Error {}

/** The server says the job is no longer this connector's (its discovery stopped waiting): stop fetching it. */
export class JobGoneError extends Error {}

export type LeasedJob = {
  id: number;
  attempt: number;
  lease_seconds: number;
  connection: { id: number; name: string; adapter: string };
  /** The connection's settings with secrets decrypted: used for the fetch, never logged or stored. */
  config: Record<string, unknown>;
  /** Set when the connection is of a custom adapter: what its files hold and how they map (no catalogue has it). */
  custom_adapter?: CustomAdapterDefinition;
};

export type Hello = { version: string; host: string; error?: string; running?: number[] };

const retriesPerCall = 4;

/** The connector API (`/connectors/api/*`) of one Cartograph server, called with the connector's token. */
export class ConnectorClient {
  private readonly dispatcher: Dispatcher;

  constructor(
    private readonly base: URL,
    private readonly token: string,
    ca?: string,
  ) {
    this.dispatcher = new Agent({ connect: ca ? { ca } : {} });
  }

  /** POSTs JSON; network failures and 5xx are retried a few times (each call is safe to repeat), 4xx are not. */
  private async post<T>(path: string, body: unknown): Promise<T> {
    let lastError: unknown;
    for (let attempt = 0; attempt < retriesPerCall; attempt += 1) {
      if (attempt) await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** attempt));
      try {
        const answer = await request(`${this.base.href.replace(/\/$/, '')}${path}`, {
          method: 'POST', dispatcher: this.dispatcher, body: JSON.stringify(body),
          headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
        });
        const text = await answer.body.text();
        const parsed = text ? JSON.parse(text) : null;
        if (answer.statusCode === 401) throw new TokenRefusedError(parsed?.detail ?? 'The server refused the connector token.');
        if (answer.statusCode === 409) throw new JobGoneError(parsed?.detail ?? 'The job is no longer this connector\'s.');
        if (answer.statusCode >= 500) {
          lastError = new Error(`The server answered ${answer.statusCode} to ${path}.`);
          continue;
        }
        if (answer.statusCode >= 400) throw new Error(`The server refused ${path} (${answer.statusCode}): ${text.slice(0, 500)}`);
        return parsed as T;
      } catch (error) {
        if (error instanceof TokenRefusedError || error instanceof JobGoneError || (error as Error).message.startsWith('The server refused')) throw error;
        lastError = error;
      }
    }
    throw lastError instanceof Error ? lastError : new Error(String(lastError));
  }

  heartbeat(hello: Hello) {
    return this.post<{ poll_seconds: number; jobs: { id: number; attempt: number }[] }>('/connectors/api/heartbeat', hello);
  }

  lease(hello: Hello) {
    return this.post<{ job: LeasedJob | null; poll_seconds: number }>('/connectors/api/jobs/lease', hello);
  }

  sendBatch(job: LeasedJob, sequence: number, records: unknown[], warnings: string[]) {
    return this.post<{ accepted: number }>(`/connectors/api/jobs/${job.id}/records`, { attempt: job.attempt, sequence, records, warnings });
  }

  finish(job: LeasedJob, result: { state: 'done' } | { state: 'error'; error: string }, warnings: string[]) {
    return this.post<null>(`/connectors/api/jobs/${job.id}/finish`, { attempt: job.attempt, ...result, warnings });
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }
}
