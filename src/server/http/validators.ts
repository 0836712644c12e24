import type { ValidateFunction } from 'ajv';
import { patchVariant } from '../../core/schemaVariants.js';
import { schemaRuleMessages, type RuledSchema } from '../../core/validation/index.js';
import { validatorsById as queryValidatorsById } from '../../generated/queryValidators.js';
import { schemaRegistry } from '../../generated/schemaRegistry.js';
import { validatorsById as bodyValidatorsById } from '../../generated/validators.js';
import { Invalid } from '../errors.js';

/** The precompiled validator of a schema id; a missing one is a programming error found at start-up. */
export function validatorFor(schemaId: string): ValidateFunction {
  const validator = bodyValidatorsById[schemaId] ?? queryValidatorsById[schemaId];
  if (!validator) throw new Error(`No precompiled validator for ${schemaId}: run npm run codegen`);
  return validator;
}

/**
 * The validator of a path's or query string's schema. Their values arrive as text, and ajv's coercion turns "1e999"
 * or "Infinity" into an infinite number that passes `integer`, `minimum` and `maximum` (those skip what is not
 * finite): such a value is refused here as not a number. Before: `?page=1e999`; after: 400 `{"page": ["must be integer"]}`.
 */
export function textPartValidatorFor(schemaId: string): ValidateFunction {
  const validate = validatorFor(schemaId);
  let errors: ValidateFunction['errors'] = null;
  const finiteOnly = (data: unknown) => {
    const valid = validate(data);
    errors = validate.errors ?? null;
    if (!valid || !data || typeof data !== 'object') return valid;
    const infinite = Object.entries(data as Record<string, unknown>).filter(([, value]) => [value].flat().some((item) => typeof item === 'number' && !Number.isFinite(item)));
    if (!infinite.length) return true;
    errors = infinite.map(([name]) => ({ instancePath: `/${name}`, schemaPath: `#/properties/${name}/type`, keyword: 'type', params: { type: 'number' }, message: 'must be a finite number' }));
    return false;
  };
  return Object.defineProperty(finiteOnly, 'errors', { get: () => errors }) as unknown as ValidateFunction;
}

export type JsonSchema = { $id: string; [keyword: string]: unknown };

/** A registered schema by id (the object Fastify and OpenAPI see; validation uses the precompiled function). */
export function schemaById(schemaId: string): JsonSchema {
  if (schemaId.endsWith('-patch')) return patchVariant(schemaById(schemaId.slice(0, -'-patch'.length)));
  const entry = schemaRegistry[schemaId];
  if (!entry) throw new Error(`Unknown schema ${schemaId}`);
  return entry.schema;
}

/** Every registered schema, for the generic resource layer and OpenAPI. */
export function allSchemas(): JsonSchema[] {
  return Object.values(schemaRegistry).map((entry) => entry.schema);
}

type PropertySchema = { type?: unknown; enum?: unknown[]; const?: unknown; anyOf?: PropertySchema[]; oneOf?: PropertySchema[] };

function takesNull(schema: PropertySchema): boolean {
  if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) return true;
  if (schema.const === null || schema.enum?.includes(null)) return true;
  return [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].some(takesNull);
}

/** The optional properties of a body schema that do not take `null`. */
export function optionalNotNull(schemaId: string): string[] {
  const schema = schemaById(schemaId) as { properties?: Record<string, PropertySchema>; required?: string[] };
  return Object.entries(schema.properties ?? {})
    .filter(([name, property]) => !schema.required?.includes(name) && !takesNull(property))
    .map(([name]) => name);
}

/**
 * The validator of a request body. Clients of the reference API send `null` for an optional value they leave out
 * (`{"fields": null, "index_id": null}`): such a null is dropped before validation, so it means what leaving the
 * property out means. Before: `{"name": "x", "description": null}`; after: `{"name": "x"}`.
 */
export function bodyValidatorFor(schemaId: string): ValidateFunction {
  const validate = validatorFor(schemaId);
  const omissible = optionalNotNull(schemaId);
  if (!omissible.length) return validate;
  const withoutNulls = (data: unknown) => {
    if (data && typeof data === 'object' && !Array.isArray(data)) {
      for (const name of omissible) if ((data as Record<string, unknown>)[name] === null) delete (data as Record<string, unknown>)[name];
    }
    return validate(data);
  };
  return Object.defineProperty(withoutNulls, 'errors', { get: () => validate.errors }) as unknown as ValidateFunction;
}

/**
 * Refuses what the schema's form would refuse: the `x-rules` of its properties (spec §5: whitespace is not a name,
 * `scanner_target`, …), checked after the schema itself, with the form's messages. A `-patch` body is checked on
 * the properties it sends. Before: `{"name": "   "}`; after: 400 `{"name": ["The Name field is required."]}`.
 */
export async function enforceFormRules(schemaId: string, body: unknown): Promise<void> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  const messages = await schemaRuleMessages(schemaById(schemaId) as RuledSchema, body as Record<string, unknown>, { partial: schemaId.endsWith('-patch') });
  if (Object.keys(messages).length) throw new Invalid(Object.fromEntries(Object.entries(messages).map(([field, message]) => [field, [message]])));
}

