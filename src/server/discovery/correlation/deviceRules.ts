import type { CorrelationRules, SourceRecord, Veto } from './correlate.js';
import { fullyQualifiedName, normalizeMac, normalizeSerial, shortHostname, valuesOf } from './identifiers.js';

// A MAC on more distinct machines' names than this is shared (docking stations, VPN adapters), not an identifier.
const sharedMacNameLimit = 3;

const serialOf = (record: SourceRecord) => normalizeSerial(record.fields.SerialNumber);
const macsOf = (record: SourceRecord) => valuesOf(record.fields.MacAddresses).map(normalizeMac).filter((mac): mac is string => mac !== null);
const cloudIdsOf = (record: SourceRecord) =>
  valuesOf(record.fields.CloudInstanceId).map((id) => `${String(record.fields.CloudProvider ?? 'cloud').toLowerCase()}:${String(id).toLowerCase()}`);
const agentIdsOf = (record: SourceRecord) => valuesOf(record.fields.AgentId).map((id) => `${record.adapter}:${String(id).toLowerCase()}`);

/** One veto per adapter that reports agent ids: two different agents of the same product are two machines. */
function agentVetoes(records: SourceRecord[]): Veto[] {
  const adapters = new Set(records.filter((record) => valuesOf(record.fields.AgentId).length).map((record) => record.adapter));
  return [...adapters].map((adapter) => ({ name: `agent_id:${adapter}`, valuesOf: (record) => (record.adapter === adapter ? agentIdsOf(record) : []) }));
}

/**
 * Values that cannot identify one machine in this data set: a serial or MAC that one source reports on records
 * with different host names (cloned VMs, images) or that appears under too many names overall.
 */
function ambiguousValues(records: SourceRecord[], valuesOfRecord: (record: SourceRecord) => string[], nameLimit: number): Set<string> {
  const namesByValue = new Map<string, { all: Set<string>; bySource: Map<number, Set<string>> }>();
  for (const record of records) {
    const name = shortHostname(record.fields.Hostname);
    if (!name) continue;
    for (const value of valuesOfRecord(record)) {
      const entry = namesByValue.get(value) ?? { all: new Set<string>(), bySource: new Map<number, Set<string>>() };
      entry.all.add(name);
      const sourceNames = entry.bySource.get(record.connectionId) ?? new Set<string>();
      sourceNames.add(name);
      entry.bySource.set(record.connectionId, sourceNames);
      namesByValue.set(value, entry);
    }
  }
  const ambiguous = new Set<string>();
  for (const [value, { all, bySource }] of namesByValue) {
    if (all.size > nameLimit || [...bySource.values()].some((names) => names.size > 1)) ambiguous.add(value);
  }
  return ambiguous;
}

/**
 * Device correlation, strongest evidence first: cloud instance id, serial number, agent id, MAC address, fully
 * qualified host name. Different serials or different cloud instance ids veto any automatic merge; host names
 * also yield to two different agents of one adapter. A host name alone never merges (see recommendations).
 */
export function deviceCorrelationRules(records: SourceRecord[]): CorrelationRules {
  const ambiguousSerials = ambiguousValues(records, (record) => [serialOf(record)].filter((serial): serial is string => serial !== null), 2);
  const ambiguousMacs = ambiguousValues(records, macsOf, sharedMacNameLimit);
  const perAdapterAgentVetoes = agentVetoes(records);
  return {
    vetoes: [
      { name: 'serial_number', valuesOf: (record) => [serialOf(record)].filter((serial): serial is string => serial !== null && !ambiguousSerials.has(serial)) },
      { name: 'cloud_instance_id', valuesOf: cloudIdsOf },
    ],
    conditionalVetoes: perAdapterAgentVetoes,
    isCurrent: (record) => valuesOf(record.fields.LastSeen).length > 0,
    rules: [
      { name: 'cloud_instance_id', keysOf: cloudIdsOf },
      { name: 'serial_number', keysOf: (record) => [serialOf(record)].filter((serial): serial is string => serial !== null && !ambiguousSerials.has(serial)) },
      { name: 'agent_id', keysOf: agentIdsOf },
      { name: 'mac_address', keysOf: (record) => macsOf(record).filter((mac) => !ambiguousMacs.has(mac)) },
      { name: 'fqdn', keysOf: (record) => [fullyQualifiedName(record.fields.Hostname, record.fields.Domain)].filter((name): name is string => name !== null), extraVetoes: perAdapterAgentVetoes.map((veto) => veto.name) },
    ],
  };
}
