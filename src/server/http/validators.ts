import type { ValidateFunction } from 'ajv';
import { patchVariant } from '../../core/schemaVariants.js';
import { schemaRuleMessages, type RuledSchema } from '../../core/validation/index.js';
import { validatorsById as queryValidatorsById } from '../../generated/queryValidators.js';
import { schemaRegistry } from '../../generated/schemaRegistry.js';
import { validatorsById as bodyValidatorsById } from '../../generated/validators.js';
import { HttpError } from './errors.js';

/** The precompiled validator of a schema id; a missing one is a programming error found at start-up. */
export function validatorFor(schemaId: string): ValidateFunction {
  const validator = bodyValidatorsById[schemaId] ?? queryValidatorsById[schemaId];
  if (!validator) throw new Error(`No precompiled validator for ${schemaId}: run npm run codegen`);
  return validator;
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
  if (Object.keys(messages).length) throw new HttpError(400, Object.fromEntries(Object.entries(messages).map(([field, message]) => [field, [message]])));
}

