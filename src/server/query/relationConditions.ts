import { resolveDateMath, type QueryNode } from '../../core/query/index.js';
import type { IndexedField } from '../inventory/indexedFields.js';
import type { ConditionNode } from './indexedConditions.js';
import { escapeLike } from '../db/likePatterns.js';
import { firstSeenSql } from '../discovery/software/findingSightings.js';

// Queries that cross inventories through a snapshot's installations and findings: devices reach their software
// (`Software.Name = "Google Chrome" AND Software.Version = 120*`) and vulnerabilities (`Vulnerability.Severity =
// Critical`), software and vulnerabilities reach their devices (`Device.OS.Type = Windows`). The conditions of one
// AND/OR group under the same prefix hold for the same installation or finding, so the first example finds devices
// with Chrome in version 120, not devices with Chrome and some other software in version 120. `NOT` stays outside:
// `NOT Software.Name = Chrome` is every device without Chrome. Devices and services reach each other the same way
// through the snapshot's service instances (`Service.Name = sshd AND Service.State = running`), and their certificates
// through its certificate places (`Certificate.ExpiryStatus = Expired`).

type ColumnKind = 'text' | 'texts' | 'number' | 'date';
/** A field of the link row itself (an installation's version, a finding's status), with its SQL over the row `l`. */
type LinkField = { sql: string; kind: ColumnKind };
/**
 * How the related assets a condition matches are handed to the link rows: `array` (found first, then the link rows
 * read through their index) suits installations, where a condition names a few products among thousands and a scan
 * would read 40 rows per device; `join` leaves the planner free to hash, which suits findings, where a condition
 * (`Severity = Critical`) often matches thousands of vulnerabilities. The planner cannot tell the two apart itself:
 * it does not know how many assets a condition on an indexed text column matches.
 */
type RelatedLookup = 'array' | 'join';
export type Relation = { prefix: string; table: string; own: string; related: { entity: string; column: string; lookup: RelatedLookup } | null; linkFields: Record<string, LinkField> };

// An analyst's status wins over the sources' (`{company}` becomes the parameter holding the caller's company).
const findingStatus: LinkField = { sql: 'coalesce((select st.status from finding_statuses st where st.company_id = {company}::int and st.finding_id = l.finding_id), l.source_status)', kind: 'text' };

/** The relations each inventory's queries may follow. */
export function relationsOf(entity: string): Relation[] {
  const installation = { Version: { sql: 'l.version', kind: 'text' }, InstallDate: { sql: 'l.install_date', kind: 'date' }, InstallPath: { sql: 'l.install_path', kind: 'text' }, ReportedName: { sql: 'l.software_name', kind: 'text' }, Source: { sql: 'l.adapter', kind: 'text' } } satisfies Record<string, LinkField>;
  const instance = {
    State: { sql: 'l.state', kind: 'text' }, StartType: { sql: 'l.start_type', kind: 'text' }, Account: { sql: 'l.account', kind: 'text' }, Port: { sql: 'l.port', kind: 'number' },
    Protocol: { sql: 'l.protocol', kind: 'text' }, Product: { sql: 'l.product', kind: 'text' }, Source: { sql: 'l.adapter', kind: 'text' },
  } satisfies Record<string, LinkField>;
  // A service's places on no device (cloud services, unlinked reports) take no part in device queries: a null there
  // would make `NOT Service.Name = sshd` unknown rather than true for devices without it.
  const instancesOnDevices = '(select * from snapshot_service_instances where device_asset is not null)';
  const placesOnDevices = '(select * from snapshot_certificate_places where device_asset is not null)';
  const finding = { Status: findingStatus, FirstSeen: { sql: firstSeenSql('l', '{company}::int'), kind: 'date' }, LastSeen: { sql: 'l.last_seen', kind: 'date' }, Port: { sql: 'l.ports', kind: 'texts' }, Source: { sql: 'l.adapters', kind: 'texts' } } satisfies Record<string, LinkField>;
  const place = { Host: { sql: 'l.host', kind: 'text' }, Port: { sql: 'l.port::text', kind: 'text' }, Sni: { sql: 'l.sni', kind: 'text' }, Source: { sql: 'l.adapter', kind: 'text' } } satisfies Record<string, LinkField>;
  switch (entity) {
    case 'device':
      return [
        { prefix: 'Software.', table: 'snapshot_installations', own: 'device_asset', related: { entity: 'software', column: 'software_asset', lookup: 'array' }, linkFields: installation },
        { prefix: 'Vulnerability.', table: 'snapshot_findings', own: 'device_asset', related: { entity: 'vulnerability', column: 'vulnerability_asset', lookup: 'join' }, linkFields: finding },
        { prefix: 'Service.', table: instancesOnDevices, own: 'device_asset', related: { entity: 'service', column: 'service_asset', lookup: 'array' }, linkFields: instance },
        // The certificates a device serves or has installed (its certificate places), as for services: the places on
        // no device take no part.
        { prefix: 'Certificate.', table: placesOnDevices, own: 'device_asset', related: { entity: 'certificate', column: 'certificate_asset', lookup: 'join' }, linkFields: { ...place, Installed: { sql: "case when l.installed then 'true' else 'false' end", kind: 'text' } } },
      ];
    case 'software':
      return [
        { prefix: 'Device.', table: 'snapshot_installations', own: 'software_asset', related: { entity: 'device', column: 'device_asset', lookup: 'join' }, linkFields: {} },
        { prefix: 'Installation.', table: 'snapshot_installations', own: 'software_asset', related: null, linkFields: installation },
      ];
    case 'vulnerability':
      return [
        { prefix: 'Device.', table: 'snapshot_findings', own: 'vulnerability_asset', related: { entity: 'device', column: 'device_asset', lookup: 'join' }, linkFields: {} },
        { prefix: 'Finding.', table: 'snapshot_findings', own: 'vulnerability_asset', related: null, linkFields: finding },
      ];
    case 'service':
      return [
        { prefix: 'Device.', table: instancesOnDevices, own: 'service_asset', related: { entity: 'device', column: 'device_asset', lookup: 'join' }, linkFields: {} },
        { prefix: 'Instance.', table: 'snapshot_service_instances', own: 'service_asset', related: null, linkFields: instance },
      ];
    case 'certificate':
      // Certificates reach the devices serving them, and the places themselves (`Place.Host = www.example.com`).
      return [
        { prefix: 'Device.', table: 'snapshot_certificate_places', own: 'certificate_asset', related: { entity: 'device', column: 'device_asset', lookup: 'join' }, linkFields: {} },
        { prefix: 'Place.', table: 'snapshot_certificate_places', own: 'certificate_asset', related: null, linkFields: place },
      ];
    default:
      return [];
  }
}

/** The relation a leaf's field goes through, if any. */
export function relationOfField(relations: Relation[], field: string): Relation | null {
  return relations.find((relation) => field.startsWith(relation.prefix) && field.length > relation.prefix.length) ?? null;
}

/** The one relation every leaf of an AND/OR subtree goes through (no NOT, no saved query), or null. */
export function relationOfSubtree(relations: Relation[], node: QueryNode): Relation | null {
  const leaves: ConditionNode[] = [];
  const collect = (current: QueryNode): boolean => {
    if (current.kind === 'and' || current.kind === 'or') return collect(current.left) && collect(current.right);
    if (current.kind === 'not' || current.kind === 'saved-query' || current.kind === 'in' || current.kind === 'contains' || current.kind === 'free-text') return false;
    leaves.push(current);
    return true;
  };
  if (!collect(node)) return null;
  const found = leaves.map((leaf) => relationOfField(relations, leaf.field));
  return found[0] && found.every((relation) => relation === found[0]) ? found[0] : null;
}


/** A leaf over one typed column of the link row. */
export function linkCondition(leaf: ConditionNode, field: LinkField, parameter: (value: unknown) => string, now: Date): string {
  const each = (condition: (value: string) => string) => (field.kind === 'texts' ? `exists (select 1 from unnest(${field.sql}) as link_value(value) where ${condition('link_value.value')})` : condition(field.sql));
  if (leaf.kind === 'exists') return each((value) => `coalesce(${value}, '') <> ''`);
  if (leaf.kind === 'last') return each((value) => `${value} >= ${parameter(resolveDateMath(leaf.since, now).toISOString())}`);
  const { operator, value } = leaf;
  const negated = (matches: string) => (operator === '!=' ? `not coalesce(${matches}, false)` : matches);
  if (value.kind === 'regex') return negated(each((column) => `${column} ${value.flags.includes('i') ? '~*' : '~'} ${parameter(value.pattern)}`));
  if (value.kind === 'number') {
    const sqlOperator = operator === '!=' ? '=' : operator;
    return negated(each((column) => (field.kind === 'number' ? `${column} ${sqlOperator} ${parameter(value.value)}` : `${column} ${sqlOperator === '=' ? '=' : sqlOperator} ${parameter(String(value.value))}`)));
  }
  if (operator === '=' || operator === '!=') return negated(each((column) => `lower(${column}) like ${parameter(escapeLike(value.text.toLowerCase()).replace(/\*/g, '%'))}`));
  return each((column) => `${column} ${operator} ${parameter(value.text)}`);
}

/** What compiling a relation subtree needs from the compiler of the related entity's own fields. */
export type RelatedCompiler = (node: QueryNode, entity: string) => { sql: string; table: string };

/**
 * The condition of a subtree going through one relation: the inventory's asset has a link row (installation or
 * finding) of the snapshot for which the subtree holds, its related-entity leaves answered by that entity's assets.
 */
export function relationCondition(relation: Relation, node: QueryNode, context: { discovery: string; company: () => string; now: Date }, parameter: (value: unknown) => string, compileRelated: RelatedCompiler): string {
  const { discovery, now } = context;
  const compile = (current: QueryNode): string => {
    if (current.kind === 'and' || current.kind === 'or') return `(${compile(current.left)} ${current.kind} ${compile(current.right)})`;
    const leaf = current as ConditionNode;
    const field = leaf.field.slice(relation.prefix.length);
    const link = relation.linkFields[field];
    if (link) return linkCondition(leaf, link.sql.includes('{company}') ? { ...link, sql: link.sql.replace('{company}', context.company()) } : link, parameter, now);
    if (!relation.related) return 'false';
    const related = compileRelated({ ...leaf, field }, relation.related.entity);
    // Aliased, so a `discovery` naming the outer row's snapshot (`snapshot_assets.discovery_id`) still means it.
    const assets = `select related.asset_id from ${related.table} related where related.discovery_id = ${discovery} and related.entity = '${relation.related.entity}' and ${related.sql}`;
    return relation.related.lookup === 'array' ? `l.${relation.related.column} = any(array(${assets}))` : `l.${relation.related.column} in (${assets})`;
  };
  return `asset_id in (select l.${relation.own} from ${relation.table} l where l.discovery_id = ${discovery} and ${compile(node)})`;
}

/** The typed fields each related entity's snapshot holds, for compiling its leaves. */
export type RelatedIndexes = ReadonlyMap<string, ReadonlyMap<string, IndexedField>>;
