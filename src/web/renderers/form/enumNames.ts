import type { UiSchema } from '@rjsf/utils';
import { enumLabelsKeyword } from '../../../core/schemaMessages.js';

type EnumNode = { [enumLabelsKeyword]?: Record<string, string>; items?: unknown };

/**
 * The option labels RJSF shows for an enum (`ui:enumNames`, by value), from a localized schema's `x-enum-labels`: on
 * the property itself (a select) or on its items (a list of checkboxes, which RJSF labels from the list's uiSchema).
 * Before: `{ enum: ['ldaps'], 'x-enum-labels': { ldaps: 'LDAPS' } }`; after: `{ 'ui:enumNames': { ldaps: 'LDAPS' } }`.
 */
export function enumNamesUi(node: EnumNode): UiSchema {
  const labels = node[enumLabelsKeyword] ?? (node.items as EnumNode | undefined)?.[enumLabelsKeyword];
  return labels ? { 'ui:enumNames': labels } : {};
}
