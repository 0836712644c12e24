import ts from 'typescript';
import { lineOf } from './consoleSources';

/** Props whose value a user reads or hears: shown as text, as a tooltip, or by a screen reader. */
export const visibleProps = ['title', 'label', 'placeholder', 'aria-label', 'alt', 'description', 'caption', 'message'];

/** Object fields read as text: table column headers, tab, option and breadcrumb labels, notification titles. */
export const visibleFields = ['header', 'label', 'title', 'description', 'placeholder', 'message'];

/** Calls whose argument is shown: the text of a notification, a confirm dialog's question. */
const shownArguments: Record<string, number> = { notify: 1, confirm: 0, 'window.confirm': 0 };

/**
 * Text with nothing to translate: no letter at all, so symbols and punctuation used as glyphs ("—" for an empty
 * value, "·" and "/" as separators, "×" for a close button, "…", digits) read the same in every language.
 */
export const hasNothingToTranslate = (text: string): boolean => !/\p{L}/u.test(text);

export type VisibleString = { line: number; where: string; text: string };

/** String literals whose value ends up shown: the branches of `a ? 'x' : 'y'`, `a ?? 'x'`, `a || 'x'`, `a && 'x'`. */
function shownLiterals(expression: ts.Expression): ts.Expression[] {
  if (ts.isParenthesizedExpression(expression)) return shownLiterals(expression.expression);
  if (ts.isConditionalExpression(expression)) return [...shownLiterals(expression.whenTrue), ...shownLiterals(expression.whenFalse)];
  if (ts.isBinaryExpression(expression)) {
    const operator = expression.operatorToken.kind;
    if (operator === ts.SyntaxKind.AmpersandAmpersandToken) return shownLiterals(expression.right);
    if (operator === ts.SyntaxKind.QuestionQuestionToken || operator === ts.SyntaxKind.BarBarToken) return [...shownLiterals(expression.left), ...shownLiterals(expression.right)];
  }
  return ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression) || ts.isTemplateExpression(expression) ? [expression] : [];
}

const literalText = (node: ts.Expression): string =>
  ts.isTemplateExpression(node) ? [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ') : (node as ts.StringLiteral).text;

/**
 * The user-visible strings written in a .tsx file rather than taken from the message file: JSX text, and string
 * literals given to a visible prop or shown as a JSX child. Before: `<h1>Devices</h1>`; after: `<h1>{t('x.devices')}</h1>`.
 */
export function visibleStringsIn(source: ts.SourceFile): VisibleString[] {
  const found: VisibleString[] = [];
  const add = (node: ts.Node, where: string, text: string) => {
    if (!hasNothingToTranslate(text)) found.push({ line: lineOf(node), where, text: text.trim() });
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) add(node, 'text', node.text);
    else if (ts.isJsxAttribute(node) && node.initializer && visibleProps.includes(node.name.getText(source))) {
      const prop = node.name.getText(source);
      if (ts.isStringLiteral(node.initializer)) add(node, prop, node.initializer.text);
      else if (ts.isJsxExpression(node.initializer) && node.initializer.expression) for (const literal of shownLiterals(node.initializer.expression)) add(literal, prop, literalText(literal));
    } else if (ts.isJsxExpression(node) && node.expression && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) {
      for (const literal of shownLiterals(node.expression)) add(literal, 'child', literalText(literal));
    } else if (ts.isPropertyAssignment(node) && visibleFields.includes(node.name.getText(source))) {
      for (const literal of shownLiterals(node.initializer)) add(literal, node.name.getText(source), literalText(literal));
    } else if (ts.isCallExpression(node)) {
      const shown = shownArguments[node.expression.getText(source)];
      const argument = shown === undefined ? undefined : node.arguments[shown];
      if (argument) for (const literal of shownLiterals(argument)) add(literal, node.expression.getText(source), literalText(literal));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
