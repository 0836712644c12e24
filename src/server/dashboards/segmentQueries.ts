import { printQuery, type ComparisonOperator, type QueryValue } from '../../core/query/index.js';
import { andQueries } from './snapshotScope.js';

const text = (value: string): QueryValue => ({ kind: 'text', text: value, quoted: true });

/** `Field = "value"` printed by the query printer, so any value (spaces, quotes, keywords) stays one literal. */
export function equalsQuery(field: string, value: string): string {
  return printQuery({ kind: 'comparison', field, operator: '=', value: text(value) });
}

/** `Field = *`: the field has a value. */
export function existsQuery(field: string): string {
  return printQuery({ kind: 'exists', field });
}

/** `NOT Field = *`: the field has no value. */
export function missingQuery(field: string): string {
  return printQuery({ kind: 'not', operand: { kind: 'exists', field } });
}

/** A comparison with a number or a text literal: `CvssScore >= 7`, `NotAfter < "2026-12-01T00:00:00.000Z"`. */
export function compareQuery(field: string, operator: ComparisonOperator, value: number | string): string {
  return printQuery({ kind: 'comparison', field, operator, value: typeof value === 'number' ? { kind: 'number', value } : text(value) });
}

/** The query behind one segment: the widget's own query narrowed by the segment's condition. */
export function segmentQuery(base: string, ...conditions: string[]): string {
  return andQueries(base, ...conditions);
}
