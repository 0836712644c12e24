import { vocabularyFormats } from '../../../../core/schemaVocabulary.js';

/** The part of JSON Schema (draft-07) that adapter connection schemas use. */
export type SchemaNode = {
  type?: string | string[];
  title?: string;
  description?: string;
  default?: unknown;
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  oneOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  allOf?: SchemaNode[];
  not?: SchemaNode;
  'x-secret'?: boolean;
  'x-order'?: number;
  'x-group'?: string;
  'x-widget'?: string;
  'x-rules'?: string;
  [keyword: string]: unknown;
};

/** One failed check: where (property path), which keyword and its parameters, in ajv's terms. */
export type SchemaIssue = { path: string[]; keyword: string; params: Record<string, unknown> };

/** Keywords this checker enforces; anything else except annotations would be ignored silently, so tests assert none is used. */
export const checkedKeywords = new Set([
  'type', 'const', 'enum', 'properties', 'required', 'additionalProperties', 'items', 'minItems', 'maxItems', 'uniqueItems',
  'minLength', 'maxLength', 'pattern', 'format', 'minimum', 'maximum', 'oneOf', 'anyOf', 'allOf', 'not',
]);
/** Keywords that describe and never constrain. */
export const annotationKeywords = new Set(['$schema', '$id', 'title', 'description', 'default', 'examples']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const same = (left: unknown, right: unknown): boolean => JSON.stringify(left) === JSON.stringify(right);

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case 'string': return typeof value === 'string';
    case 'integer': return typeof value === 'number' && Number.isInteger(value);
    case 'number': return typeof value === 'number' && Number.isFinite(value);
    case 'boolean': return typeof value === 'boolean';
    case 'object': return isObject(value);
    case 'array': return Array.isArray(value);
    case 'null': return value === null;
    default: return false;
  }
}

const patterns = new Map<string, RegExp>();
// Regular expressions, not compiled code: the console's content security policy forbids only `new Function`.
function patternOf(source: string): RegExp {
  let pattern = patterns.get(source);
  if (!pattern) {
    pattern = new RegExp(source, 'u');
    patterns.set(source, pattern);
  }
  return pattern;
}

function checkString(schema: SchemaNode, value: string, path: string[], issues: SchemaIssue[]): void {
  // ajv counts characters as code points, not UTF-16 units.
  const length = [...value].length;
  if (schema.minLength !== undefined && length < schema.minLength) issues.push({ path, keyword: 'minLength', params: { limit: schema.minLength } });
  if (schema.maxLength !== undefined && length > schema.maxLength) issues.push({ path, keyword: 'maxLength', params: { limit: schema.maxLength } });
  if (schema.pattern !== undefined && !patternOf(schema.pattern).test(value)) issues.push({ path, keyword: 'pattern', params: { pattern: schema.pattern } });
  const format = schema.format ? vocabularyFormats[schema.format] : undefined;
  if (format && !format.test(value)) issues.push({ path, keyword: 'format', params: { format: schema.format } });
}

function checkObject(schema: SchemaNode, value: Record<string, unknown>, path: string[], issues: SchemaIssue[]): void {
  // The server validates with ajv's useDefaults: a missing property that has a default is filled in, not missing.
  for (const name of schema.required ?? []) {
    if (value[name] === undefined && schema.properties?.[name]?.default === undefined) issues.push({ path: [...path, name], keyword: 'required', params: { missingProperty: name } });
  }
  for (const [name, item] of Object.entries(value)) {
    if (item === undefined) continue;
    const property = schema.properties?.[name];
    if (property) issues.push(...checkValue(property, item, [...path, name]));
    else if (schema.additionalProperties === false) issues.push({ path: [...path, name], keyword: 'additionalProperties', params: { additionalProperty: name } });
    else if (isObject(schema.additionalProperties)) issues.push(...checkValue(schema.additionalProperties, item, [...path, name]));
  }
}

function checkArray(schema: SchemaNode, value: unknown[], path: string[], issues: SchemaIssue[]): void {
  if (schema.minItems !== undefined && value.length < schema.minItems) issues.push({ path, keyword: 'minItems', params: { limit: schema.minItems } });
  if (schema.maxItems !== undefined && value.length > schema.maxItems) issues.push({ path, keyword: 'maxItems', params: { limit: schema.maxItems } });
  if (schema.uniqueItems && new Set(value.map((item) => JSON.stringify(item))).size !== value.length) issues.push({ path, keyword: 'uniqueItems', params: {} });
  if (schema.items) value.forEach((item, index) => issues.push(...checkValue(schema.items!, item, [...path, String(index)])));
}

// The `const` properties of a branch: how a discriminated oneOf (auth_type, source_type) names its branches.
const constantsOf = (branch: SchemaNode) => Object.entries(branch.properties ?? {}).filter(([, property]) => 'const' in property);

/**
 * A oneOf passes when exactly one branch does. When none does, the issues of the branch the value names through its
 * `const` discriminator are reported (its missing client secret, say), not a bare "matches no option".
 */
function checkOneOf(branches: SchemaNode[], value: unknown, path: string[], issues: SchemaIssue[]): void {
  const results = branches.map((branch) => checkValue(branch, value, path));
  const passing = results.filter((result) => result.length === 0).length;
  if (passing === 1) return;
  if (passing === 0 && isObject(value)) {
    const named = branches.findIndex((branch) => {
      const constants = constantsOf(branch);
      return constants.length > 0 && constants.every(([name, property]) => same(value[name], property.const));
    });
    if (named >= 0) {
      issues.push(...results[named]!);
      return;
    }
  }
  issues.push({ path, keyword: 'oneOf', params: { passingSchemas: passing } });
}

/**
 * Checks a value against a connection schema and answers every failed check (empty when valid), the way ajv would:
 * the console may not compile validators at run time and the adapter schemas are not precompiled for it.
 * Before: `checkValue({ type: 'object', required: ['url'] }, {})`; after: `[{ path: ['url'], keyword: 'required', … }]`.
 */
export function checkValue(schema: SchemaNode, value: unknown, path: string[] = []): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((type) => typeMatches(type, value))) return [{ path, keyword: 'type', params: { type: types.join(',') } }];
  }
  if ('const' in schema && !same(schema.const, value)) issues.push({ path, keyword: 'const', params: { allowedValue: schema.const } });
  if (schema.enum && !schema.enum.some((choice) => same(choice, value))) issues.push({ path, keyword: 'enum', params: { allowedValues: schema.enum } });
  if (typeof value === 'string') checkString(schema, value, path, issues);
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) issues.push({ path, keyword: 'minimum', params: { limit: schema.minimum } });
    if (schema.maximum !== undefined && value > schema.maximum) issues.push({ path, keyword: 'maximum', params: { limit: schema.maximum } });
  }
  if (isObject(value)) checkObject(schema, value, path, issues);
  if (Array.isArray(value)) checkArray(schema, value, path, issues);
  if (schema.oneOf) checkOneOf(schema.oneOf, value, path, issues);
  if (schema.anyOf && !schema.anyOf.some((branch) => checkValue(branch, value, path).length === 0)) issues.push({ path, keyword: 'anyOf', params: {} });
  for (const branch of schema.allOf ?? []) issues.push(...checkValue(branch, value, path));
  if (schema.not && checkValue(schema.not, value, path).length === 0) issues.push({ path, keyword: 'not', params: {} });
  return issues;
}

/** Keywords of a schema (and its subschemas) that this checker neither enforces nor may ignore. */
export function uncheckedKeywords(schema: SchemaNode): string[] {
  const found = new Set<string>();
  const visit = (node: SchemaNode) => {
    for (const keyword of Object.keys(node)) if (!checkedKeywords.has(keyword) && !annotationKeywords.has(keyword) && !keyword.startsWith('x-')) found.add(keyword);
    for (const child of Object.values(node.properties ?? {})) visit(child);
    for (const child of [...(node.oneOf ?? []), ...(node.anyOf ?? []), ...(node.allOf ?? [])]) visit(child);
    for (const child of [node.items, node.not, node.additionalProperties]) if (isObject(child)) visit(child as SchemaNode);
  };
  visit(schema);
  return [...found];
}
