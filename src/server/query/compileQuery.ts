import { addressValuePattern, resolveDateMath, type AddressRange, type ComparisonOperator, type QueryNode, type QueryValue } from '../../core/query/index.js';
import { fieldError } from '../errors.js';
import type { IndexedField } from '../inventory/indexedFields.js';
import { fieldColumn } from './fieldColumns.js';
import { indexedCondition, type ConditionNode } from './indexedConditions.js';
import { addressRangeOrRefusal, isAddressField } from './queryFields.js';
import { relationCondition, relationOfSubtree, relationsOf, type RelatedIndexes, type Relation } from './relationConditions.js';

// Bounds on what one query may ask of the database (on top of the statement timeout every inventory query runs
// under): a long regular expression or a huge tree is refused before it is sent.
export const maximumRegexLength = 200;
export const maximumConditions = 200;

/** Where a compiled condition reads a snapshot's assets: their typed index rows, or their documents. */
export type SnapshotTable = 'snapshot_index' | 'snapshot_assets';
export type CompiledQuery = { sql: string; params: unknown[]; table: SnapshotTable };
/**
 * Queries of an inventory may follow its relations to others (relationConditions.ts) when the caller names the
 * entity, the parameter holding the snapshot's discovery id, the company, and the typed fields of each entity.
 */
export type RelationOptions = { entity: string; discovery: string; companyId: number; indexed: RelatedIndexes };
/** `entity` names the inventory (else the relations' one): its address fields read subnets and ranges. */
export type CompileOptions = { firstParameter: number; now?: Date; indexed?: ReadonlyMap<string, IndexedField>; relations?: RelationOptions; entity?: string };

// Regular-expression syntax characters (ASCII punctuation), escaped so a value matches itself.
const regexSyntax = /[!-/:-@[-`{-~]/g;
const jsonNumber = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

/** A jsonpath string literal (JSON's escapes are jsonpath's). */
const pathString = (text: string) => JSON.stringify(text);

/** The jsonpath filter for "a value equals `text`, ignoring case", `*` matching anything. */
function textEqualsFilter(text: string): string {
  const pattern = text.split('*').map((part) => part.replace(regexSyntax, (character) => `\\${character}`)).join('.*');
  // The exact text first: most values are written as the sources report them, and equality costs far less than
  // the case-blind regular expression it spares.
  const matches = [...(text.includes('*') ? [] : [`@ == ${pathString(text)}`]), `@ like_regex ${pathString(`^${pattern}$`)} flag "is"`];
  // A number or boolean a source reported matches its text too (`"443"` finds the port 443).
  if (jsonNumber.test(text) || text === 'true' || text === 'false') matches.push(`@ == ${text}`);
  return matches.join(' || ');
}

/**
 * Compiles a query tree (saved queries already expanded) into a parameterized SQL condition over a snapshot
 * asset. When `indexed` names the typed columns the snapshot holds and every condition has a typed form
 * (indexedConditions.ts), the condition reads `snapshot_index`; otherwise it reads the asset's `fields` and
 * `specifics` documents, which map each field to the list of its values (`{"OS.Type": ["Windows"]}`). Both forms
 * answer the same assets. Field names and values only ever travel as parameters.
 */
export function compileQuery(node: QueryNode, options: CompileOptions): CompiledQuery {
  const fromIndex = options.indexed?.size ? compileTree(node, options, options.indexed) : null;
  if (fromIndex) return { sql: fromIndex.sql, params: fromIndex.params, table: 'snapshot_index' };
  const fromDocuments = compileTree(node, options, null)!;
  return { sql: fromDocuments.sql, params: fromDocuments.params, table: 'snapshot_assets' };
}

/**
 * The condition over the documents (`indexed` null), or over the index (null as soon as one condition has no
 * typed form). Text matches ignore case; `*` is a wildcard; dates are ISO-8601 UTC strings, so they compare as
 * text. Equality, numbers and dates compile to one jsonpath test per asset, evaluated without a row per value;
 * regular expressions and text ordering keep PostgreSQL's own operators (and their collation).
 */
function compileTree(node: QueryNode, options: CompileOptions, indexed: ReadonlyMap<string, IndexedField> | null): (Omit<CompiledQuery, 'table'> & { typed: boolean }) | null {
  const now = options.now ?? new Date();
  const params: unknown[] = [];
  const parameter = (value: unknown) => {
    params.push(value);
    return `$${options.firstParameter + params.length - 1}`;
  };
  const anyValue = (field: string, condition: (value: string) => string) =>
    `exists (select 1 from jsonb_array_elements_text(coalesce(${fieldColumn(field)}->${parameter(field)}, '[]'::jsonb)) as field_value(value) where ${condition('field_value.value')})`;
  const anyValueMatches = (field: string, filter: string) => `${fieldColumn(field)} @? ${parameter(`$.${pathString(field)}[*] ? (${filter})`)}::jsonpath`;

  const entity = options.entity ?? options.relations?.entity ?? null;
  // The field's values that read as addresses, cast only once the pattern (which only `inet`'s own syntax
  // passes) has let them through, so an odd value never fails the query.
  const addresses = (field: string) =>
    `array(select field_value.value::inet from jsonb_array_elements_text(coalesce(${fieldColumn(field)}->${parameter(field)}, '[]'::jsonb)) as field_value(value) where field_value.value ~ ${parameter(addressValuePattern)})`;
  // The same test over the documents' addresses and over the index's `inet[]` column, which holds exactly those.
  const inNetwork = (range: AddressRange, values: string) =>
    range.kind === 'subnet'
      ? `${parameter(range.subnet)}::inet >>= any(${values})`
      : `exists (select 1 from unnest(${values}) as address(value) where host(address.value)::inet between ${parameter(range.from)}::inet and ${parameter(range.to)}::inet)`;
  const networkOf = (current: ConditionNode) =>
    current.kind === 'comparison' && current.value.kind === 'text' && (current.operator === '=' || current.operator === '!=') && entity !== null && isAddressField(entity, current.field)
      ? addressRangeOrRefusal(current.value.text, current.field)
      : null;

  const comparison = (field: string, operator: string, value: QueryValue): string => {
    const negated = (matches: string) => (operator === '!=' ? `not ${matches}` : matches);
    const range = networkOf({ kind: 'comparison', field, operator: operator as ComparisonOperator, value });
    if (range) return negated(inNetwork(range, addresses(field)));
    if (value.kind === 'regex') {
      if (value.pattern.length > maximumRegexLength) throw fieldError('query', `Regular expressions are limited to ${maximumRegexLength} characters.`);
      return negated(anyValue(field, (column) => `${column} ${value.flags.includes('i') ? '~*' : '~'} ${parameter(value.pattern)}`));
    }
    if (value.kind === 'number') {
      // `.double()` reads numbers and numeric text; other values fail it and do not match.
      return negated(anyValueMatches(field, `@.double() ${{ '=': '==', '!=': '==' }[operator] ?? operator} ${value.value}`));
    }
    if (operator === '=' || operator === '!=') return negated(anyValueMatches(field, textEqualsFilter(value.text)));
    return anyValue(field, (column) => `${column} ${operator} ${parameter(value.text)}`);
  };

  const documentCondition = (current: ConditionNode): string => {
    switch (current.kind) {
      case 'exists':
        return `jsonb_array_length(coalesce(${fieldColumn(current.field)}->${parameter(current.field)}, '[]'::jsonb)) > 0`;
      case 'last':
        return anyValueMatches(current.field, `@ >= ${pathString(resolveDateMath(current.since, now).toISOString())}`);
      case 'comparison':
        return comparison(current.field, current.operator, current.value);
    }
  };

  let conditions = 0;
  let typed = true;
  const relations = options.relations ? relationsOf(options.relations.entity) : [];
  let companyParameter: string | null = null;
  const company = () => (companyParameter ??= parameter(options.relations!.companyId));
  // A related entity's own leaves, numbered after this query's parameters so far; typed when its index allows.
  const compileRelated = (leaves: QueryNode, entity: string) => {
    const nested = { firstParameter: options.firstParameter + params.length, now, entity };
    const compiled = compileTree(leaves, nested, options.relations!.indexed.get(entity) ?? null) ?? compileTree(leaves, nested, null)!;
    params.push(...compiled.params);
    return { sql: compiled.sql, table: compiled.typed ? 'snapshot_index' : 'snapshot_assets' };
  };
  const throughRelation = (relation: Relation, node: QueryNode) => relationCondition(relation, node, { discovery: options.relations!.discovery, company, now }, parameter, compileRelated);
  const compile = (current: QueryNode): string => {
    conditions += 1;
    if (conditions > maximumConditions) throw fieldError('query', `A query may hold at most ${maximumConditions} conditions (saved queries included).`);
    const relation = relations.length ? relationOfSubtree(relations, current) : null;
    if (relation) return throughRelation(relation, current);
    switch (current.kind) {
      case 'and': {
        if (!relations.length) return `(${compile(current.left)} and ${compile(current.right)})`;
        // The operands of an AND chain under one relation are one group: they hold for the same link row.
        const operands: QueryNode[] = [];
        const flatten = (node: QueryNode): void => (node.kind === 'and' ? (flatten(node.left), flatten(node.right)) : void operands.push(node));
        flatten(current);
        const groups = new Map<Relation, QueryNode[]>();
        const parts: string[] = [];
        for (const operand of operands) {
          const owner = relationOfSubtree(relations, operand);
          if (owner) groups.set(owner, [...(groups.get(owner) ?? []), operand]);
          else parts.push(compile(operand));
        }
        for (const [owner, group] of groups) parts.push(throughRelation(owner, group.reduce((left, right) => ({ kind: 'and', left, right }))));
        return `(${parts.join(' and ')})`;
      }
      case 'or':
        return `(${compile(current.left)} or ${compile(current.right)})`;
      case 'not':
        return `not (${compile(current.operand)})`;
      case 'saved-query':
        throw new Error(`Saved query ${current.id} must be expanded before compiling`);
      case 'in':
      case 'contains':
      case 'free-text':
        throw new Error(`${current.kind} must be resolved (queryFields.ts) before compiling`);
      default: {
        if (!indexed) return documentCondition(current);
        // Subnets and ranges read the field's `inet[]` column, when the snapshot has it filled.
        const network = networkOf(current);
        const addressColumn = indexed.get(current.field)?.addressColumn;
        const condition = network
          ? addressColumn ? `${current.kind === 'comparison' && current.operator === '!=' ? 'not ' : ''}${inNetwork(network, addressColumn)}` : null
          : indexedCondition(current, indexed, parameter, now);
        typed &&= condition !== null;
        return condition ?? 'false';
      }
    }
  };
  const sql = compile(node);
  return typed || !indexed ? { sql, params, typed: Boolean(indexed) } : null;
}
