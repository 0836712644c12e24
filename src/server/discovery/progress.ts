export type StageName = 'fetch' | 'correlate' | 'publish';
export type RunState = 'pending' | 'running' | 'done' | 'warning' | 'error';

export type ConnectionProgress = {
  id: number;
  name: string;
  adapter: string;
  state: RunState;
  records: number;
  by_entity: Record<string, number>;
  warnings: string[];
  warning_count: number;
  error: string;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
};

export type StageProgress = { state: RunState; started_at: string | null; finished_at: string | null; duration_ms: number | null; detail: string };
export type DiscoveryProgress = { stages: Record<StageName, StageProgress>; connections: ConnectionProgress[]; assets: Record<string, number> };

// The first warnings of a connection are kept word for word; the rest are counted.
const keptWarnings = 20;

const pendingStage = (): StageProgress => ({ state: 'pending', started_at: null, finished_at: null, duration_ms: null, detail: '' });

export function newProgress(connections: { id: number; name: string; adapter: string }[]): DiscoveryProgress {
  return {
    stages: { fetch: pendingStage(), correlate: pendingStage(), publish: pendingStage() },
    connections: connections.map((connection) => ({
      ...connection, state: 'pending', records: 0, by_entity: {}, warnings: [], warning_count: 0, error: '', started_at: null, finished_at: null, duration_ms: null,
    })),
    assets: {},
  };
}

/** Marks a stage or connection as started. */
export function begin(item: { state: RunState; started_at: string | null }): void {
  item.state = 'running';
  item.started_at = new Date().toISOString();
}

/** Marks a stage or connection as finished with its final state and duration. */
export function finish(item: { state: RunState; started_at: string | null; finished_at: string | null; duration_ms: number | null }, state: RunState): void {
  item.state = state;
  item.finished_at = new Date().toISOString();
  item.duration_ms = item.started_at ? Date.parse(item.finished_at) - Date.parse(item.started_at) : null;
}

export function addWarning(connection: ConnectionProgress, message: string): void {
  connection.warning_count += 1;
  if (connection.warnings.length < keptWarnings) connection.warnings.push(message.slice(0, 500));
}
