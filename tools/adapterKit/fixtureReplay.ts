// Replays an adapter's fixture through the real declarative HTTP engine against a local replay server: the records
// it hands over, the warnings it gave and the requests no exchange matched. The conformance test and the adapter
// kit's `check` both replay through here.
import type { ConnectivityResult, FetchedRecord } from '../../src/server/adapters/engine.js';
import { createHttpEngine } from '../../src/server/adapters/http/httpEngine.js';
import type { Manifest } from '../../src/server/adapters/http/manifest.js';
import type { OutboundPolicy } from '../../src/server/outbound/guard.js';
import { startReplayServer, withReplayUrl, type ReplayFixture } from './replayServer.js';

/**
 * The replay server listens on loopback: an engine replaying a fixture runs as an installation that allows it (the
 * provider's choice). tests/server/outbound/outboundPolicy.test.ts proves the default refuses it.
 */
export const loopbackAllowed: OutboundPolicy = { loopback: true, privateRanges: true };

const replayTimeoutMs = 20_000;

export type ReplayResult = { records: FetchedRecord[]; warnings: string[]; unmatched: string[]; error?: string };

/** Fetches every stream of the manifest against the fixture's exchanges; a failing fetch is reported, not thrown. */
export async function replayFixture(slug: string, fixture: ReplayFixture, manifest: Manifest): Promise<ReplayResult> {
  const server = await startReplayServer(fixture.exchanges, { ntlm: fixture.ntlm });
  const engine = createHttpEngine(() => manifest);
  const warnings: string[] = [];
  const records: FetchedRecord[] = [];
  try {
    const config = withReplayUrl(fixture.config, server.url);
    for await (const record of engine.fetch({ adapter: slug, config, signal: AbortSignal.timeout(replayTimeoutMs), warn: (message) => warnings.push(message), outbound: loopbackAllowed })) records.push(record);
    return { records, warnings, unmatched: server.unmatched };
  } catch (error) {
    return { records, warnings, unmatched: server.unmatched, error: error instanceof Error ? error.message : String(error) };
  } finally {
    await server.close();
  }
}

/** The fixture's config with `changes` laid over it (an object value changes only the keys it names: `{auth: {password}}`). */
export function changedConfig(config: Record<string, unknown>, changes: Record<string, unknown> = {}): Record<string, unknown> {
  const merged = { ...config };
  for (const [name, value] of Object.entries(changes)) {
    merged[name] = value && typeof value === 'object' && !Array.isArray(value) ? { ...(merged[name] as object), ...value } : value;
  }
  return merged;
}

/** The manifest's connectivity check against a fresh replay of the same exchanges, with the config changed by `changes`. */
export async function replayConnectivityCheck(slug: string, fixture: ReplayFixture, manifest: Manifest, changes?: Record<string, unknown>): Promise<ConnectivityResult> {
  const server = await startReplayServer(fixture.exchanges, { ntlm: fixture.ntlm });
  try {
    return await createHttpEngine(() => manifest).test({ adapter: slug, config: withReplayUrl(changedConfig(fixture.config, changes), server.url), signal: AbortSignal.timeout(replayTimeoutMs), outbound: loopbackAllowed });
  } finally {
    await server.close();
  }
}
