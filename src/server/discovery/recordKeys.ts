import { createHash } from 'node:crypto';
import type { FetchedRecord } from '../adapters/engine.js';

// Vendor fields that hold a record's own id, most specific first.
const rawIdFields = ['id', 'uuid', 'guid', 'objectGUID', 'device_id', 'deviceId', 'sys_id', 'aid', 'agent_id', 'asset_id', 'hostId'];
const fieldIdFields = ['AgentId', 'CloudInstanceId', 'SerialNumber', 'Hostname', 'UserPrincipalName', 'Email', 'Username', 'CveId', 'Fingerprint', 'SoftwareName'];

const firstText = (value: unknown): string | null => {
  let first = Array.isArray(value) ? value[0] : value;
  // ServiceNow answers with display values wrap every field as `{value, display_value}`: the id is the value.
  if (first && typeof first === 'object' && 'value' in first) first = (first as { value: unknown }).value;
  return typeof first === 'string' || typeof first === 'number' ? String(first) : null;
};

// Keys are a B-tree's entries (at most 2,704 bytes): an id longer than this is kept as its SHA-256, which is as
// stable across discoveries and cannot fail the write.
const longestIdLength = 256;

/**
 * A key for a record that stays the same in later discoveries, so an analyst's merge or split of it sticks:
 * the vendor's own id when the record has one, else its strongest identifying field.
 * Before: raw `{device_id: "4f2a"}` from connection 7; after: `"7:device:4f2a"`.
 */
export function recordKeyFor(connectionId: number, record: FetchedRecord, position: number): string {
  const raw = (record.raw && typeof record.raw === 'object' ? record.raw : {}) as Record<string, unknown>;
  const rawId = rawIdFields.map((field) => firstText(raw[field])).find((value) => value !== null);
  const fieldId = fieldIdFields.map((field) => firstText(record.fields[field])).find((value) => value !== null);
  const id = rawId ?? fieldId ?? `#${position}`;
  return `${connectionId}:${record.entity}:${id.length > longestIdLength ? `sha256:${createHash('sha256').update(id).digest('hex')}` : id}`;
}
