import type { RJSFValidationError } from '@rjsf/utils';
import { defaultMessageFor, ruleMessage, type ValidationRuleName } from '../../../core/validation/index.js';

/** The top-level field an error belongs to. Before: `.group_ids.0`; after: `group_ids`. */
export function fieldOfError(error: Pick<RJSFValidationError, 'property'>): string {
  return (error.property ?? '').replace(/^\./, '').split('.')[0] ?? '';
}

type Params = Record<string, unknown>;
// ajv keywords and the catalogue rule whose message says the same thing, with the rule's parameters.
const asRule: Record<string, (params: Params) => [ValidationRuleName, string[]] | null> = {
  required: () => ['required', []],
  minLength: (params) => ['min', [String(params.limit)]],
  maxLength: (params) => ['max', [String(params.limit)]],
  minimum: (params) => ['min_value', [String(params.limit)]],
  maximum: (params) => ['max_value', [String(params.limit)]],
  pattern: () => ['regex', ['.']],
  minItems: (params) => ['array_min', [String(params.limit)]],
  maxItems: (params) => ['array_max', [String(params.limit)]],
  enum: () => ['one_of', ['-']],
  const: () => ['one_of', ['-']],
  format: (params) => (params.format === 'email' ? ['email', []] : params.format === 'uri' ? ['url', []] : null),
  type: (params) => (params.type === 'integer' ? ['integer', []] : params.type === 'number' ? ['numeric', []] : null),
};

/**
 * RJSF's `transformErrors`: ajv's messages become the English messages of the rule catalogue (spec §5); anything
 * without a matching rule gets "The {field} is not valid.". `labels` maps field names to their labels.
 * Before: `{ name: 'required', property: '.username' }`; after: message "The Username field is required.".
 */
export function transformErrorsWith(labels: Record<string, string>) {
  return (errors: RJSFValidationError[]): RJSFValidationError[] =>
    errors.map((error) => {
      const field = fieldOfError(error);
      const label = labels[field] ?? field;
      const rule = asRule[error.name ?? '']?.((error.params ?? {}) as Params) ?? null;
      const message = rule ? ruleMessage({ name: rule[0], parameters: rule[1] }, { field: label }) : defaultMessageFor(label);
      return { ...error, message, stack: `${label}: ${message}` };
    });
}

/** The first message of each field (spec §5: the first failing rule wins). */
export function firstErrorByField(errors: RJSFValidationError[]): Record<string, string> {
  const byField: Record<string, string> = {};
  for (const error of errors) {
    const field = fieldOfError(error);
    if (field && error.message && !(field in byField)) byField[field] = error.message;
  }
  return byField;
}
