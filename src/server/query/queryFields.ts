import { addressRangeOf, type QueryNode, type QueryValue } from '../../core/query/index.js';
import { tokenize } from '../../core/query/lexer.js';
import { Invalid } from '../errors.js';
import { schemaById } from '../http/validators.js';
import { inventorySchemas } from '../inventory/indexedFields.js';
import { isSpecificField } from './fieldColumns.js';
import { relationOfField, relationsOf } from './relationConditions.js';

// What the fields of a query mean for one inventory, read from its entity schema: which fields exist (a typo is an
// error that names the nearest field, never a silent "0 devices"), which fields free text searches (`x-search`),
// which hold IP addresses (`x-ip`: `= 10.61.0.0/16` means "in this subnet") and which hold dates.

type PropertySchema = { title?: string; type?: string; format?: string; items?: PropertySchema; 'x-ip'?: true };
type EntitySchema = { properties?: Record<string, PropertySchema>; 'x-search'?: string[] };

const schemaOf = (entity: string): EntitySchema => (inventorySchemas[entity] ? (schemaById(inventorySchemas[entity]) as EntitySchema) : {});
const propertiesOf = (entity: string) => schemaOf(entity).properties ?? {};

/** The fields free text searches in an inventory, as its schema's `x-search` lists them. */
export const searchFieldsOf = (entity: string): string[] => schemaOf(entity)['x-search'] ?? [];

/** Whether the field is one of the inventory's own (not a related inventory's, nor an adapter's specific field). */
export const isOwnField = (entity: string, field: string): boolean => Object.hasOwn(propertiesOf(entity), field);

/** Whether a field of the inventory holds IP addresses (`x-ip`). */
export const isAddressField = (entity: string, field: string): boolean => propertiesOf(entity)[field]?.['x-ip'] === true;

const itemOf = (entity: string, field: string) => {
  const property = propertiesOf(entity)[field];
  return property?.items ?? property;
};
const isDateField = (entity: string, field: string) => ['date', 'date-time'].includes(itemOf(entity, field)?.format ?? '');
const isNumberField = (entity: string, field: string) => ['integer', 'number'].includes(itemOf(entity, field)?.type ?? '');
const isBooleanField = (entity: string, field: string) => itemOf(entity, field)?.type === 'boolean';
const numericText = /^\s*-?\d+(\.\d+)?\s*$/;

/** Why a text value cannot be one of the field's values (a date field given "yesterday"), or null. */
function wrongType(entity: string, field: string, text: string): string | null {
  // A wildcard pattern asks about the text sources wrote, whatever the field's type.
  if (text.includes('*')) return null;
  const title = titleOf(entity, field);
  if (isDateField(entity, field) && !/^\d{4}/.test(text)) return `${title} takes a date (2026-11-08) or "last now-7d"; "${text}" is not one`;
  if (isNumberField(entity, field) && !numericText.test(text)) return `${title} takes a number; "${text}" is not one`;
  if (isBooleanField(entity, field) && !/^(true|false)$/i.test(text)) return `${title} takes true or false; "${text}" is not one`;
  return null;
}

/** Levenshtein distance, ignoring case: how many letters separate a typo from a field. */
function distance(left: string, right: string): number {
  const a = left.toLowerCase();
  const b = right.toLowerCase();
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) current.push(Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = current;
  }
  return previous[b.length];
}

/** The fields of `candidates` nearest to `field` (at most three, within a third of its length, at least two letters). */
export function nearestFields(field: string, candidates: string[]): string[] {
  const limit = Math.max(2, Math.floor(field.length / 3));
  return candidates
    .map((candidate) => ({ candidate, distance: distance(field, candidate) }))
    .filter((entry) => entry.distance <= limit)
    .sort((left, right) => left.distance - right.distance || left.candidate.localeCompare(right.candidate))
    .slice(0, 3)
    .map((entry) => entry.candidate);
}

const entityNames: Record<string, string> = { device: 'device', user: 'user', software: 'software', vulnerability: 'vulnerability', service: 'service', license: 'license', certificate: 'certificate' };

/** Why `field` names nothing a query of `entity` can read, with the nearest fields; null when it does. */
export function fieldProblem(entity: string, field: string): string | null {
  if (isSpecificField(field)) return field.length > 'Specifics.'.length ? null : `"${field}" names no adapter field.`;
  const relations = relationsOf(entity);
  const relation = relationOfField(relations, field);
  if (relation) {
    const rest = field.slice(relation.prefix.length);
    const reachable = [...Object.keys(relation.linkFields), ...(relation.related ? Object.keys(propertiesOf(relation.related.entity)) : [])];
    if (reachable.includes(rest)) return null;
    const near = nearestFields(rest, reachable).map((name) => `${relation.prefix}${name}`);
    return `Unknown field "${field}": ${relation.prefix.slice(0, -1)} has no field "${rest}".${near.length ? ` Did you mean ${near.join(' / ')}?` : ''}`;
  }
  const own = Object.keys(propertiesOf(entity));
  if (own.includes(field)) return null;
  // A field of another inventory, reachable through a relation (`Hostname` on software: `Device.Hostname`).
  const owner = Object.keys(inventorySchemas).find((other) => other !== entity && field in propertiesOf(other));
  if (owner) {
    const through = relations.find((candidate) => candidate.related?.entity === owner);
    return `Unknown field "${field}": ${field} is a ${entityNames[owner]} field${through ? `; here try ${through.prefix}${field}` : ''}.`;
  }
  const near = nearestFields(field, [...own, ...relations.map((candidate) => candidate.prefix.slice(0, -1))]).filter((name) => own.includes(name));
  return `Unknown field "${field}".${near.length ? ` Did you mean ${near.join(' / ')}?` : ''}`;
}

/** Where `field` is first written in `text` (null when it comes from a saved query, or the text has no such word). */
export function positionOf(text: string | undefined, field: string): number | null {
  if (!text) return null;
  try {
    return tokenize(text).find((token) => token.type === 'word' && token.text === field)?.position ?? null;
  } catch {
    return null;
  }
}

/** A query error on `query` pointing at where the field is written. */
function refusal(message: string, text: string | undefined, field: string): Invalid {
  const position = positionOf(text, field);
  return new Invalid({ query: [position === null ? message : `${message} (at character ${position + 1})`], ...(position === null ? {} : { position: [String(position)] }) });
}

const anyOf = (nodes: QueryNode[]): QueryNode => nodes.reduce((left, right) => ({ kind: 'or', left, right }));
const containing = (text: string): QueryValue => ({ kind: 'text', text: `*${text}*`, quoted: true });

/** Reads an address range, answering a malformed one (`10.61.0.0/33`) as the field error it is. */
export function addressRangeOrRefusal(text: string, field: string, query?: string) {
  try {
    return addressRangeOf(text);
  } catch (error) {
    if (error instanceof RangeError) throw refusal(error.message, query, field);
    throw error;
  }
}

/**
 * Rewrites the query's shorthands into the conditions the compilers read, checking each field against the
 * inventory (`entity`; null when the caller names none, which leaves fields unchecked):
 * - free text `lt-0017` → `Hostname = *lt-0017* OR IpAddresses = *lt-0017* OR …` over the `x-search` fields
 *   (a subnet or range as free text is one on the address fields);
 * - `Tags in [a, b]` → `Tags = a OR Tags = b`; `Hostname contains web` → `Hostname = *web*`.
 * Unknown fields and values of the wrong type are 400s naming the field (`text` gives their position).
 */
export function resolveQuery(node: QueryNode, entity: string | null, text?: string): QueryNode {
  const resolve = (current: QueryNode): QueryNode => {
    switch (current.kind) {
      case 'and':
      case 'or':
        return { ...current, left: resolve(current.left), right: resolve(current.right) };
      case 'not':
        return { ...current, operand: resolve(current.operand) };
      case 'saved-query':
        return current;
      case 'free-text': {
        const fields = entity ? searchFieldsOf(entity) : [];
        if (!fields.length) throw new Invalid({ query: [`"${current.text}" is not a condition: write Field = value${entity ? '' : ' (free text searches an inventory)'}.`] });
        const range = addressRangeOrRefusal(current.text, fields[0], text);
        return anyOf(fields.map((field) => ({ kind: 'comparison', field, operator: '=', value: range && isAddressField(entity!, field) ? { kind: 'text', text: current.text, quoted: false } : containing(current.text) })));
      }
      case 'in':
        check(current.field);
        return anyOf(current.values.map((value) => resolve({ kind: 'comparison', field: current.field, operator: '=', value })));
      case 'contains':
        check(current.field);
        return { kind: 'comparison', field: current.field, operator: '=', value: containing(current.text) };
      case 'comparison':
        check(current.field);
        if (entity && current.value.kind === 'text' && isOwnField(entity, current.field)) {
          const problem = wrongType(entity, current.field, current.value.text);
          if (problem) throw refusal(problem, text, current.field);
          if (isAddressField(entity, current.field)) addressRangeOrRefusal(current.value.text, current.field, text);
        }
        return current;
      case 'last':
        check(current.field);
        if (entity && isOwnField(entity, current.field) && !isDateField(entity, current.field)) {
          throw refusal(`${titleOf(entity, current.field)} is not a date: "last" takes a date field, like LastSeen last now-7d`, text, current.field);
        }
        return current;
      default:
        check(current.field);
        return current;
    }
  };
  const check = (field: string) => {
    const problem = entity ? fieldProblem(entity, field) : null;
    if (problem) throw refusal(problem, text, field);
  };
  return resolve(node);
}

const titleOf = (entity: string, field: string) => propertiesOf(entity)[field]?.title ?? field;
