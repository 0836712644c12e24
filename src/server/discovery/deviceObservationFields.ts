import type { Database } from '../db/database.js';
import { withoutJit } from '../db/jit.js';

// A device's "Installed software", "CVE IDs" and "Open ports" fields say in one cell what its detail lists from the
// other inventories: the software installed on it (the software inventory's names), the CVEs of its open findings
// (the matcher's included) and the ports its services listen on. They are written into the devices' documents once
// those inventories are built, so lists, queries, sorting and exports read them like any field. Values a source
// reported itself (a file's "Open ports" column) are kept beside them.

/** The device fields filled from the other inventories, and the SQL giving each device's values (`device_asset`, `value`). */
// Text and number arrays aggregate (and drop repeats) several times faster than JSON values: each becomes JSON once.
const derivedFields: Record<string, string> = {
  'InstalledSoftware.SoftwareName': `select installed.device_asset, to_jsonb(array_agg(distinct s.fields->'Name'->>0)) as value
      from (select distinct device_asset, software_asset from snapshot_installations where discovery_id = $1) as installed
      join snapshot_assets s on s.discovery_id = $1 and s.entity = 'software' and s.asset_id = installed.software_asset
     where s.fields->'Name'->>0 is not null group by installed.device_asset`,
  'VulnerableSoftware.CveId': `select device_asset, to_jsonb(array_agg(distinct cve_id)) as value
      from snapshot_findings where discovery_id = $1 and cve_id is not null and source_status = 'open' group by device_asset`,
  'OpenPorts.PortNumber': `select device_asset, to_jsonb(array_agg(distinct port)) as value
      from snapshot_service_instances where discovery_id = $1 and device_asset is not null and port is not null group by device_asset`,
};

const fields = Object.keys(derivedFields);
// Each device's values of every field side by side (one column each, null where it has none), so each device
// document is rewritten once.
const derivedRows = fields
  .map((field, index) => `(${derivedFields[field]}) as field_${index}`)
  .reduce((joined, next, index) => (index ? `${joined} full join ${next} using (device_asset)` : next));
// A field's new values: the inventory's, with the source's own kept (`$n` names the field).
const mergedValue = (index: number) =>
  `case when a.fields ? $${index + 2} then (select jsonb_agg(distinct value) from jsonb_array_elements(a.fields->$${index + 2} || derived.value_${index})) else derived.value_${index} end`;

/**
 * Writes the derived fields into the snapshot's device documents: the device's values from the inventories, joined
 * with what its sources reported, without repeats; a field the inventories hold nothing of is left as it was.
 * Before: `{"Hostname": ["ws-1"], "OpenPorts.PortNumber": [3389]}` with ssh on 22; after: `{..., "OpenPorts.PortNumber": [22, 3389]}`.
 */
export async function fillDeviceObservationFields(db: Database, discoveryId: number): Promise<void> {
  const values = fields.map((_, index) => `field_${index}.value as value_${index}`).join(', ');
  const written = fields.map((_, index) => `$${index + 2}::text, ${mergedValue(index)}`).join(', ');
  await db.transaction((connection) =>
    withoutJit(connection, () =>
      connection.query(
        `update snapshot_assets a set fields = a.fields || jsonb_strip_nulls(jsonb_build_object(${written}))
           from (select device_asset, ${values} from ${derivedRows}) as derived
          where a.discovery_id = $1 and a.entity = 'device' and a.asset_id = derived.device_asset`,
        [discoveryId, ...fields],
      ),
    ),
  );
}
