// Normalization figures for `npm run bench`: the device records of a replayed fleet (the five vendors' shapes of
// fleetVendors.ts, mapped by their adapters' real manifests) stored as a discovery stores them, with and without the
// normalization step, beside the baseline of mapping them alone, in the same run. The vendor pages are built up
// front; each figure is the best of a few passes, so a busy machine's one slow pass does not decide it.
import { performance } from 'node:perf_hooks';
import { loadManifest } from '../../src/server/adapters/http/manifest.js';
import { mapRecords } from '../../src/server/adapters/http/recordMapping.js';
import type { EntityKind, FetchedRecord } from '../../src/server/adapters/engine.js';
import { normalizeDeviceFields, type OsLifecycle } from '../../src/core/normalization/index.js';
import { flattenFields, normalizeRecord } from '../../src/server/discovery/normalize.js';
import { bundledLifecycle } from '../support/bundledLifecycle.js';
import { benchFleet } from './fleetReplay.js';
import { replayStreams, vendorPage, type ReplayStream } from './fleetVendors.js';

/** The manifest stream that reads each replayed device collection. */
const deviceStreams = { entraDevices: 'devices', falconHosts: 'hosts', intuneDevices: 'managed_devices', qualysHosts: 'host_assets', serviceNowComputers: 'configuration_items' } as const;

type Mapping = { adapter: string; vendorRecords: unknown[]; map: (records: unknown[]) => FetchedRecord[] };

function mappingOf(stream: ReplayStream, streamName: string): Mapping {
  const manifest = loadManifest(stream.adapter);
  const spec = manifest?.streams.find((candidate) => candidate.name === streamName);
  if (!spec) throw new Error(`${stream.adapter} has no stream ${streamName}`);
  // Connection settings the mappings read (Graph's cloud, ServiceNow's instance) as the bench's connections give them.
  const config = { cloud: 'global', base_url: 'http://replay', graph_url: 'http://replay', tables: ['cmdb_ci_computer'] };
  return { adapter: stream.adapter, vendorRecords: vendorPage(stream, 0, stream.records.length), map: (records) => mapRecords(spec, records, null, config, { item: 'cmdb_ci_computer' }) };
}

const milliseconds = (value: number) => Number(value.toFixed(1));
const pageSize = 1000;

/**
 * Device records of fleets of `sizes` devices, a page at a time as a discovery reads them (only the vendor pages are
 * held): mapping alone (the baseline), mapping and storing without normalization (the same records under another
 * entity name, which normalization leaves alone), and mapping, normalizing and storing as a discovery does. The three
 * take turns, `passes` times, and each keeps its best pass; normalization's cost is the difference of the last two.
 * Normalization reads the OS lifecycle (`lifecycle`, the bundled snapshot) as a discovery does.
 */
export function normalizationBench(lifecycle: OsLifecycle, sizes = [10_000, 100_000], passes = 3) {
  return sizes.map((devices) => {
    const streams = replayStreams(benchFleet(devices));
    const mappings = Object.entries(deviceStreams).map(([key, name]) => mappingOf(streams[key as keyof typeof deviceStreams], name));
    const records = mappings.reduce((sum, mapping) => sum + mapping.vendorRecords.length, 0);
    const pass = (store: ((record: FetchedRecord, adapter: string) => void) | null) => {
      const started = performance.now();
      for (const mapping of mappings) {
        for (let start = 0; start < mapping.vendorRecords.length; start += pageSize) {
          const page = mapping.map(mapping.vendorRecords.slice(start, start + pageSize));
          if (store) for (const record of page) store(record, mapping.adapter);
        }
      }
      return performance.now() - started;
    };
    // The step alone, timed around each call on records already mapped and flattened (a page at a time): the
    // difference of the passes above also counts the collection of the values it writes, and so varies more.
    const stepAlone = () => {
      let elapsed = 0;
      for (const mapping of mappings) {
        for (let start = 0; start < mapping.vendorRecords.length; start += pageSize) {
          const page = mapping.map(mapping.vendorRecords.slice(start, start + pageSize)).map((record) => flattenFields(record.fields));
          const started = performance.now();
          for (const fields of page) normalizeDeviceFields(fields, { lifecycle });
          elapsed += performance.now() - started;
        }
      }
      return elapsed;
    };
    const best = { mapping: Infinity, without: Infinity, with: Infinity, step: Infinity };
    for (let run = 0; run < passes; run += 1) {
      best.step = Math.min(best.step, stepAlone());
      best.mapping = Math.min(best.mapping, pass(null));
      best.without = Math.min(best.without, pass((record, adapter) => normalizeRecord({ ...record, entity: 'device-without-normalization' as EntityKind }, adapter)));
      best.with = Math.min(best.with, pass((record, adapter) => normalizeRecord(record, adapter, { lifecycle })));
    }
    const normalizationMs = Math.max(0, best.with - best.without);
    return {
      devices, device_records: records,
      mapping_alone_baseline_ms: milliseconds(best.mapping),
      mapping_and_storing_without_normalization_ms: milliseconds(best.without),
      mapping_normalizing_and_storing_ms: milliseconds(best.with),
      normalization_ms: milliseconds(normalizationMs),
      normalization_us_per_record: Number(((normalizationMs * 1000) / records).toFixed(2)),
      normalization_share_of_mapping_and_storing: Number((normalizationMs / best.with).toFixed(3)),
      normalization_step_alone_ms: milliseconds(best.step),
      normalization_step_alone_us_per_record: Number(((best.step * 1000) / records).toFixed(2)),
    };
  });
}

// `tsx tests/bench/normalization.ts [devices...]` runs these figures alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv.slice(2).map(Number).filter((size) => size > 0);
  process.stdout.write(`${JSON.stringify(normalizationBench(await bundledLifecycle(new Date().toISOString().slice(0, 10)), sizes.length ? sizes : undefined), null, 2)}\n`);
}
