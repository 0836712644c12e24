import type { CustomValidator, ErrorSchema, ErrorTransformer, RJSFSchema, RJSFValidationError, UiSchema, ValidationData, ValidatorType } from '@rjsf/utils';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { validatorsById } from '../../../generated/formValidators.js';

/** ajv's errors in RJSF's shape. Before: `{ instancePath: '', keyword: 'required', params: { missingProperty: 'name' } }`; after: property `.name`. */
export function toValidationErrors(errors: readonly ErrorObject[]): RJSFValidationError[] {
  return errors.map((error) => {
    const missing = error.keyword === 'required' ? `/${String((error.params as { missingProperty?: string }).missingProperty)}` : '';
    const property = `${error.instancePath}${missing}`.replace(/\//g, '.');
    return { name: error.keyword, property, message: error.message, params: error.params, stack: `${property} ${error.message ?? ''}`.trim(), schemaPath: error.schemaPath };
  });
}

function toErrorSchema(errors: RJSFValidationError[]): ErrorSchema {
  const schema: Record<string, unknown> = {};
  for (const error of errors) {
    let node = schema as Record<string, unknown> & { __errors?: string[] };
    for (const segment of (error.property ?? '').split('.').filter(Boolean)) node = (node[segment] ??= {}) as typeof node;
    node.__errors = [...(node.__errors ?? []), error.message ?? ''];
  }
  return schema as ErrorSchema;
}

// A schema without a precompiled validator (an option inside a oneOf, say) is judged by its `const` properties alone:
// that is how RJSF picks the branch of a discriminated oneOf, and the full check runs on the whole form anyway.
function matchesConstants(schema: RJSFSchema, data: unknown): boolean {
  if (typeof data !== 'object' || data === null) return false;
  const properties = (schema.properties ?? {}) as Record<string, RJSFSchema>;
  const constants = Object.entries(properties).filter(([, property]) => typeof property === 'object' && 'const' in property);
  return constants.length > 0 && constants.every(([name, property]) => (data as Record<string, unknown>)[name] === property.const);
}

/**
 * RJSF's validator on the validators codegen precompiled with the shared vocabulary (registerVocabulary): the
 * console's content security policy forbids compiling a schema at run time (ajv's `new Function`). A form schema is
 * found by its `$id`; the data is validated against the full entity schema, exactly as the server does.
 */
export class PrecompiledFormValidator implements ValidatorType {
  constructor(private readonly validators: Record<string, ValidateFunction> = validatorsById) {}

  private validatorOf(schema: RJSFSchema): ValidateFunction | undefined {
    return typeof schema.$id === 'string' ? this.validators[schema.$id] : undefined;
  }

  rawValidation<Result = unknown>(schema: RJSFSchema, formData?: unknown): { errors?: Result[]; validationError?: Error } {
    const validate = this.validatorOf(schema);
    if (!validate) return { validationError: new Error(`No precompiled validator for schema ${String(schema.$id)}`) };
    // The precompiled validators fill defaults in: validate a copy so the form's state stays as the user left it.
    const valid = validate(structuredClone(formData ?? {}));
    return { errors: valid ? undefined : ((validate.errors ?? []) as Result[]) };
  }

  // Rule strings (x-rules) run in SchemaForm, not through customValidate: some rules are asynchronous.
  validateFormData(formData: unknown, schema: RJSFSchema, _customValidate?: CustomValidator, transformErrors?: ErrorTransformer, uiSchema?: UiSchema): ValidationData<unknown> {
    const raw = this.rawValidation<ErrorObject>(schema, formData);
    if (raw.validationError) throw raw.validationError;
    let errors = toValidationErrors(raw.errors ?? []);
    if (transformErrors) errors = transformErrors(errors, uiSchema);
    return { errors, errorSchema: toErrorSchema(errors) };
  }

  isValid(schema: RJSFSchema, formData: unknown): boolean {
    const validate = this.validatorOf(schema);
    return validate ? Boolean(validate(structuredClone(formData ?? {}))) : matchesConstants(schema, formData);
  }
}

export const formValidator = new PrecompiledFormValidator();
