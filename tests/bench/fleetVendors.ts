// The generated fleet (src/server/demo/fleet.ts) as five vendors' APIs answer it, for the discovery bench's replay
// server: each fleet record becomes the vendor record that its adapter's manifest (schemas/adapters/<slug>/
// manifest.json) maps back to the same entity fields. A vendor record carries only what the fleet record says, plus
// the vendor's id, so the bench measures the same data the in-process engine streamed.
//
// What the manifests cannot carry (so correlation sees less than the fleet holds):
// - directory devices (Entra `/devices`): Graph's device has no domain, so the directory's device name is served
//   fully qualified (as on-premises directories' dNSHostName gives it): without it they could never merge by FQDN;
// - directory users: no Domain (`CORP`; the manifest maps no domain for users);
// - EDR (Falcon): only one `mac_address`, so the docking-station MAC is lost; AgentId is Falcon's device id;
// - MDM users: the Intune manifest reads managed devices only, so the fleet's MDM people are not served at all;
//   Intune devices gain an AgentId (the manifest maps Intune's id to it);
// - scanner (Qualys): its `os` is the fleet's full OS string (the manifest maps it to OS.FullOsString);
// - CMDB (ServiceNow): DeviceManufacturer (a reference in the Table API, unmapped) and ParentHost (cmdb_rel_ci,
//   not read) are lost.
// Vendors also send creation and update times that the manifests map to FirstSeen and LastSeen; they are left out
// where the fleet record has no LastSeen, because LastSeen decides which of two contested records is current (the
// fleet's stale CMDB record of a retired machine whose name was reused).
import { createHash } from 'node:crypto';
import type { SourceRecord } from '../../src/server/discovery/correlation/correlate.js';
import { fleetSources, type LabelledFleet } from '../../src/server/demo/fleet.js';

type VendorRecord = Record<string, unknown>;

/** One paged collection the replay serves: fleet records, their vendor ids and their vendor shape. */
export type ReplayStream = {
  adapter: string;
  records: SourceRecord[];
  /** The vendor id of the record at `position` (unique within the stream). */
  idOf: (record: SourceRecord, position: number) => string | number;
  toVendor: (record: SourceRecord, id: string | number) => VendorRecord;
  /** The snapshot field (under `Specifics.<adapter>`) that holds the vendor id once fetched. */
  idField: string;
};

const first = (value: unknown): unknown => (Array.isArray(value) ? value[0] : value);
const hex32 = (key: string) => createHash('md5').update(key).digest('hex');
/** A GUID-shaped id derived from the fleet key, as Microsoft Graph ids look. */
const guid = (key: string) => {
  const hex = hex32(key);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
};
// Qualys host asset ids are numbers and its pages ask for `id GREATER <last id>`: ids follow the served order.
export const qualysFirstId = 89_000_001;

/** ServiceNow's Table API with sysparm_display_value=all answers every field as both its value and display value. */
const both = (value: unknown) => (value === undefined ? undefined : { display_value: value, value });

function graphUser(record: SourceRecord, id: string | number): VendorRecord {
  const fields = record.fields;
  return {
    id, displayName: fields.DisplayName, userPrincipalName: fields.Email, mail: fields.Email, givenName: fields.FirstName, surname: fields.LastName,
    employeeId: fields.EmployeeId, accountEnabled: true, onPremisesSamAccountName: fields.Username, onPremisesSyncEnabled: true,
  };
}

function graphDevice(record: SourceRecord, id: string | number): VendorRecord {
  const fields = record.fields;
  return {
    id, displayName: fields.Domain ? `${fields.Hostname}.${fields.Domain}` : fields.Hostname, operatingSystem: fields['OS.Type'], operatingSystemVersion: fields['OS.Version'], trustType: 'ServerAd',
    approximateLastSignInDateTime: fields.LastSeen,
  };
}

function falconHost(record: SourceRecord, id: string | number): VendorRecord {
  const fields = record.fields;
  return {
    device_id: id, hostname: fields.Hostname, machine_domain: fields.Domain, serial_number: fields.SerialNumber, mac_address: first(fields.MacAddresses),
    local_ip: first(fields.IpAddresses), platform_name: fields['OS.Type'], os_version: fields['OS.Version'], os_build: fields['OS.Build'], last_seen: fields.LastSeen, last_login_user: first(fields.LastUsedUsers),
  };
}

function intuneDevice(record: SourceRecord, id: string | number): VendorRecord {
  const fields = record.fields;
  // Intune answers MACs as twelve bare hex digits.
  const mac = first(fields.MacAddresses);
  return {
    id, deviceName: fields.Hostname, serialNumber: fields.SerialNumber, wiFiMacAddress: typeof mac === 'string' ? mac.replace(/[^0-9a-f]/gi, '').toUpperCase() : null,
    operatingSystem: fields['OS.Type'], osVersion: fields['OS.Version'], manufacturer: fields.DeviceManufacturer, model: fields.DeviceModel, managedDeviceOwnerType: 'company',
  };
}

function qualysHost(record: SourceRecord, id: string | number): VendorRecord {
  const fields = record.fields;
  const [address, mac] = [first(fields.IpAddresses), first(fields.MacAddresses)];
  return {
    HostAsset: {
      id, name: fields.Hostname, dnsHostName: fields.Hostname, fqdn: fields.Hostname, address, os: fields['OS.FullOsString'], type: 'HOST', trackingMethod: 'IP',
      networkInterface: { list: [{ HostAssetInterface: { address, macAddress: typeof mac === 'string' ? mac.toUpperCase() : mac } }] },
    },
  };
}

function serviceNowComputer(record: SourceRecord, id: string | number): VendorRecord {
  const fields = record.fields;
  return { sys_id: id, name: fields.Hostname, os_domain: fields.Domain, serial_number: fields.SerialNumber, model_number: fields.DeviceModel, os: fields['OS.Type'], os_version: fields['OS.Version'] };
}

function serviceNowUser(record: SourceRecord, id: string | number): VendorRecord {
  const fields = record.fields;
  return { sys_id: both(id), name: both(fields.DisplayName), email: both(fields.Email), employee_number: both(fields.EmployeeId), active: both('true') };
}

export type ReplayStreams = Record<'entraUsers' | 'entraDevices' | 'falconHosts' | 'intuneDevices' | 'qualysHosts' | 'serviceNowComputers' | 'serviceNowUsers', ReplayStream>;

/** The collections the five manifests fetch, from a fleet (devices by source, people by source). */
export function replayStreams(fleet: LabelledFleet): ReplayStreams {
  const devicesOf = (connectionId: number) => fleet.records.filter((record) => record.connectionId === connectionId);
  const usersOf = (connectionId: number) => fleet.users.filter((record) => record.connectionId === connectionId);
  const byGuid = (record: SourceRecord) => guid(record.key);
  const byHex = (record: SourceRecord) => hex32(record.key);
  return {
    entraUsers: { adapter: 'azure-entra', records: usersOf(fleetSources.directory.connectionId), idOf: byGuid, toVendor: graphUser, idField: 'Specifics.azure-entra.id' },
    entraDevices: { adapter: 'azure-entra', records: devicesOf(fleetSources.directory.connectionId), idOf: byGuid, toVendor: graphDevice, idField: 'Specifics.azure-entra.id' },
    falconHosts: { adapter: 'crowdstrike', records: devicesOf(fleetSources.edr.connectionId), idOf: byHex, toVendor: falconHost, idField: 'Specifics.crowdstrike.device_id' },
    intuneDevices: { adapter: 'microsoft-intune', records: devicesOf(fleetSources.mdm.connectionId), idOf: byGuid, toVendor: intuneDevice, idField: 'Specifics.microsoft-intune.id' },
    qualysHosts: { adapter: 'qualys', records: devicesOf(fleetSources.scanner.connectionId), idOf: (_, position) => qualysFirstId + position, toVendor: qualysHost, idField: 'Specifics.qualys.id' },
    serviceNowComputers: { adapter: 'servicenow', records: devicesOf(fleetSources.cmdb.connectionId), idOf: byHex, toVendor: serviceNowComputer, idField: 'Specifics.servicenow.sys_id' },
    serviceNowUsers: { adapter: 'servicenow', records: usersOf(fleetSources.cmdb.connectionId), idOf: byHex, toVendor: serviceNowUser, idField: 'Specifics.servicenow.sys_id.value' },
  };
}

/** The vendor records of positions [start, end) of a stream. */
export function vendorPage(stream: ReplayStream, start: number, end: number): VendorRecord[] {
  const page: VendorRecord[] = [];
  for (let position = start; position < Math.min(end, stream.records.length); position += 1) {
    const record = stream.records[position];
    page.push(stream.toVendor(record, stream.idOf(record, position)));
  }
  return page;
}
