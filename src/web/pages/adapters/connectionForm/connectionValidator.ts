import type { ErrorSchema, ErrorTransformer, RJSFSchema, RJSFValidationError, ValidationData, ValidatorType } from '@rjsf/utils';
import { fieldLabel } from '../../../../core/validation/index.js';
import { transformErrorsWith } from '../../../renderers/form/transformErrors';
import { checkValue, type SchemaIssue, type SchemaNode } from './schemaCheck';

/** A property path as the server's field errors name it. Before: `['auth', 'client_id']`; after: `auth.client_id`. */
export const pathKey = (path: readonly string[]): string => path.join('.');

/** The title of the property at `path`, looked up through properties, array items and every oneOf branch. */
export function titleAt(schema: SchemaNode, path: readonly string[]): string {
  let nodes: SchemaNode[] = [schema];
  for (const segment of path) {
    const expanded = nodes.flatMap((node) => [node, ...(node.oneOf ?? []), ...(node.anyOf ?? [])]);
    nodes = expanded.flatMap((node) => {
      if (node.properties?.[segment]) return [node.properties[segment]!];
      if (/^\d+$/.test(segment) && node.items) return [node.items];
      return [];
    });
  }
  const titled = nodes.find((node) => typeof node.title === 'string');
  return titled?.title ?? fieldLabel(path.at(-1) ?? '');
}

/**
 * The English message of an issue, from the rule catalogue like every other form (spec §5). The renderer's
 * transformer reads the field from the error's property; a one-segment key carries the nested path through it.
 */
export function issueMessage(schema: SchemaNode, issue: SchemaIssue): string {
  const key = issue.path.join('/');
  const [error] = transformErrorsWith({ [key]: titleAt(schema, issue.path) })([{ name: issue.keyword, property: `.${key}`, params: issue.params, message: '', stack: '' }]);
  return error?.message ?? '';
}

/** The first message of every failing path of a value (spec §5: a field's first failing check wins). */
export function messagesOf(schema: SchemaNode, value: unknown): Record<string, string> {
  const messages: Record<string, string> = {};
  for (const issue of checkValue(schema, value)) {
    const key = pathKey(issue.path);
    if (!(key in messages)) messages[key] = issueMessage(schema, issue);
  }
  return messages;
}

/** Nested RJSF error schema from path → messages. Before: `{ 'auth.token': ['…'] }`; after: `{ auth: { token: { __errors: ['…'] } } }`. */
export function errorSchemaOf(messages: Record<string, readonly string[]>): ErrorSchema {
  const root: Record<string, unknown> = {};
  for (const [key, list] of Object.entries(messages)) {
    if (!list.length) continue;
    let node = root as Record<string, unknown> & { __errors?: string[] };
    for (const segment of key.split('.').filter(Boolean)) node = (node[segment] ??= {}) as typeof node;
    node.__errors = [...(node.__errors ?? []), ...list];
  }
  return root as ErrorSchema;
}

/**
 * RJSF's validator for adapter connection forms: checks with the schema interpreter instead of precompiled ajv
 * (codegen precompiles no adapter schema for the console). RJSF also asks it which oneOf branch the data matches.
 */
export class ConnectionSchemaValidator implements ValidatorType {
  validateFormData(formData: unknown, schema: RJSFSchema, _custom?: unknown, transformErrors?: ErrorTransformer): ValidationData<unknown> {
    const node = schema as SchemaNode;
    let errors: RJSFValidationError[] = checkValue(node, formData).map((issue) => {
      const property = issue.path.length ? `.${issue.path.join('.')}` : '';
      const message = issueMessage(node, issue);
      return { name: issue.keyword, property, message, params: issue.params, stack: `${property} ${message}`.trim(), schemaPath: '' };
    });
    if (transformErrors) errors = transformErrors(errors);
    const byPath: Record<string, string[]> = {};
    for (const error of errors) (byPath[(error.property ?? '').replace(/^\./, '')] ??= []).push(error.message ?? '');
    return { errors, errorSchema: errorSchemaOf(byPath) };
  }

  isValid(schema: RJSFSchema, formData: unknown): boolean {
    return checkValue(schema as SchemaNode, formData).length === 0;
  }

  rawValidation<Result = unknown>(schema: RJSFSchema, formData?: unknown): { errors?: Result[]; validationError?: Error } {
    const issues = checkValue(schema as SchemaNode, formData);
    return { errors: issues.length ? (issues as Result[]) : undefined };
  }
}

export const connectionValidator = new ConnectionSchemaValidator();
