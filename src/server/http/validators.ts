import type { ValidateFunction } from 'ajv';
import { patchVariant } from '../../core/schemaVariants.js';
import { validatorsById as queryValidatorsById } from '../../generated/queryValidators.js';
import { schemaRegistry } from '../../generated/schemaRegistry.js';
import { validatorsById as bodyValidatorsById } from '../../generated/validators.js';

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
