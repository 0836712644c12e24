// One-off codemod: moves user-visible strings of .tsx files to message keys. Usage: tsx codemod.ts <dir-or-file>...
import ts from 'typescript';
import { readFileSync, writeFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import path from 'node:path';

const root = process.cwd();
const localeFile = 'src/web/public/locales/en-US.json';
const messages: Record<string, string> = JSON.parse(readFileSync(localeFile, 'utf8'));
const dryRun = process.env.DRY === '1';

const visibleAttrs = new Set(['title', 'label', 'placeholder', 'aria-label', 'alt', 'description', 'caption', 'message', 'empty', 'content', 'consequence', 'listLabel', 'savedMessage', 'error', 'heading', 'confirmLabel', 'subtitle', 'emptyText', 'loadingLabel', 'actionLabel', 'submitLabel', 'cancelLabel', 'hint', 'help']);
const visibleProps = new Set(['header', 'label', 'title', 'description', 'content', 'placeholder', 'message', 'caption', 'empty', 'hint', 'help']);
const skipAttrValue = (attr: string, value: string) => attr === 'text' && /^(search|query)$/.test(value);

const targets = process.argv.slice(2).flatMap((arg) =>
  execSync(`find ${arg} \\( -name '*.tsx' -o -name '*.ts' \\) -not -name '*.test.tsx' -not -name '*.stories.tsx' -not -name '*.d.ts'`).toString().trim().split('\n').filter(Boolean),
);

function areaOf(file: string): string {
  const rel = path.relative('src/web', file).split(path.sep);
  if (rel[0] === 'app') return rel.length > 2 ? ({ notifications: 'notification', pwa: 'update' } as Record<string, string>)[rel[1]] ?? rel[1] : 'app';
  if (rel[0] === 'ui') return 'ui';
  if (rel[0] === 'renderers') return 'renderers';
  if (rel[0] === 'pages') return rel[1];
  return rel[0];
}

const hasLetter = (s: string) => /\p{L}/u.test(s);

function camel(text: string): string {
  const words = text
    .replace(/\{(\w+)\}/g, ' $1 ')
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9 ]+/g, ' ')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  return words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0].toUpperCase() + w.slice(1).toLowerCase())).join('');
}

function keyFor(area: string, text: string): string {
  for (const [k, v] of Object.entries(messages)) if (v === text && k.startsWith(area + '.') && !k.slice(area.length + 1).includes('.')) return k;
  let words = text.replace(/\{(\w+)\}/g, ' $1 ').normalize('NFKD').replace(/[^A-Za-z0-9 ]+/g, ' ').trim().split(/\s+/).filter(Boolean);
  const stop = new Set(['a', 'an', 'the', 'of', 'to', 'is', 'are', 'be', 'this', 'that', 'it', 'its', 'and', 'or', 'for', 'in', 'on', 'with', 'by', 'at', 'as']);
  if (words.length > 3) words = words.filter((w) => !stop.has(w.toLowerCase()));
  for (let n = Math.min(4, words.length); n <= Math.max(words.length, 1); n++) {
    const name = camel(words.slice(0, n).join(' ')) || 'text';
    const key = `${area}.${name.slice(0, 60)}`;
    if (!(key in messages)) return (messages[key] = text), key;
    if (messages[key] === text) return key;
    if (n >= 6) break;
  }
  const base = `${area}.${camel(words.slice(0, 4).join(' ')) || 'text'}`;
  for (let i = 2; ; i++) {
    const key = `${base}${i}`;
    if (!(key in messages)) return (messages[key] = text), key;
    if (messages[key] === text) return key;
  }
}

/** JSX whitespace rule (as Babel/TS apply it): lines trimmed where they meet a newline, blank lines dropped, joined by a space. */
function cleanJsxText(raw: string): string {
  const lines = raw.split(/\r\n|\n|\r/);
  const kept: string[] = [];
  lines.forEach((line, i) => {
    let l = line.replace(/\t/g, ' ');
    if (i !== 0) l = l.replace(/^[ ]+/, '');
    if (i !== lines.length - 1) l = l.replace(/[ ]+$/, '');
    if (l) kept.push(l);
  });
  return kept.join(' ');
}

const program = ts.createProgram(targets, { jsx: ts.JsxEmit.ReactJSX, strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, resolveJsonModule: true, esModuleInterop: true, skipLibCheck: true, types: ['node'], lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'] });
const checker = program.getTypeChecker();

function stringOrNumber(expr: ts.Expression): boolean {
  const type = checker.getTypeAtLocation(expr);
  const parts = type.isUnion() ? type.types : [type];
  return parts.every((p) => (p.flags & (ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike)) !== 0);
}

function containsJsx(node: ts.Node): boolean {
  let found = false;
  const walk = (n: ts.Node) => {
    if (ts.isJsxElement(n) || ts.isJsxSelfClosingElement(n) || ts.isJsxFragment(n)) found = true;
    else ts.forEachChild(n, walk);
  };
  walk(node);
  return found;
}

function containsTextLiteral(node: ts.Node): boolean {
  let found = false;
  const walk = (n: ts.Node) => {
    if ((ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n)) && hasLetter(n.text) && !(ts.isCallExpression(n.parent) && n.parent.arguments[0] === n)) found = true;
    else ts.forEachChild(n, walk);
  };
  walk(node);
  return found;
}

function placeholderName(expr: ts.Expression): string {
  if (ts.isIdentifier(expr)) return expr.text;
  if (ts.isPropertyAccessExpression(expr)) return expr.name.text;
  if (ts.isCallExpression(expr) && ts.isPropertyAccessExpression(expr.expression)) return placeholderName(expr.expression.expression);
  if (ts.isCallExpression(expr) && ts.isIdentifier(expr.expression)) return expr.expression.text;
  if (ts.isParenthesizedExpression(expr) || ts.isNonNullExpression(expr) || ts.isAsExpression(expr)) return placeholderName(expr.expression);
  if (ts.isElementAccessExpression(expr)) return placeholderName(expr.expression);
  if (ts.isBinaryExpression(expr)) return placeholderName(expr.left);
  return 'value';
}

const getterVars = new Set((process.env.GETTERS ?? '').split(',').filter(Boolean));
function inGetterVar(node: ts.Node): boolean {
  for (let n = node.parent; n; n = n.parent) if (ts.isVariableDeclaration(n)) return getterVars.has(n.name.getText());
  return false;
}

function insideFunction(node: ts.Node): boolean {
  for (let n = node.parent; n; n = n.parent) if (ts.isFunctionLike(n)) return true;
  return false;
}

type Edit = { start: number; end: number; text: string };
const report: string[] = [];

function callFor(area: string, parts: Array<string | ts.Expression>, sf: ts.SourceFile): string | null {
  let text = '';
  const values: Array<[string, string]> = [];
  for (const part of parts) {
    if (typeof part === 'string') text += part.replace(/[{}]/g, (c) => c);
    else {
      let name = placeholderName(part);
      const used = new Set(values.map(([n]) => n));
      if (used.has(name)) for (let i = 2; ; i++) if (!used.has(name + i)) { name = name + i; break; }
      values.push([name, part.getText(sf)]);
      text += `{${name}}`;
    }
  }
  if (!hasLetter(text.replace(/\{\w+\}/g, ''))) return null;
  const key = keyFor(area, text);
  const args = values.length ? `, { ${values.map(([n, e]) => (n === e ? n : `${/^[A-Za-z_$][\w$]*$/.test(n) ? n : JSON.stringify(n)}: ${e}`)).join(', ')} }` : '';
  return `t('${key}'${args})`;
}

function literalParts(expr: ts.Expression): Array<string | ts.Expression> | null {
  if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) return [expr.text];
  if (ts.isTemplateExpression(expr)) {
    const parts: Array<string | ts.Expression> = [expr.head.text];
    for (const span of expr.templateSpans) parts.push(span.expression, span.literal.text);
    return parts.filter((p) => p !== '');
  }
  return null;
}

/** Converts string literals in the value branches of an expression (conditionals, ?? || &&), returning edits. */
function convertValueExpr(expr: ts.Expression, area: string, sf: ts.SourceFile, edits: Edit[]): void {
  if (ts.isParenthesizedExpression(expr)) return convertValueExpr(expr.expression, area, sf, edits);
  if (ts.isConditionalExpression(expr)) {
    convertValueExpr(expr.whenTrue, area, sf, edits);
    convertValueExpr(expr.whenFalse, area, sf, edits);
    return;
  }
  if (ts.isBinaryExpression(expr) && [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.AmpersandAmpersandToken].includes(expr.operatorToken.kind)) {
    if (expr.operatorToken.kind !== ts.SyntaxKind.AmpersandAmpersandToken) convertValueExpr(expr.left, area, sf, edits);
    convertValueExpr(expr.right, area, sf, edits);
    return;
  }
  const parts = literalParts(expr);
  if (!parts) return;
  if (ts.isTemplateExpression(expr) && parts.some((p) => typeof p !== 'string' && (containsJsx(p) || containsTextLiteral(p)))) {
    report.push(`${sf.fileName}:${sf.getLineAndCharacterOfPosition(expr.getStart(sf)).line + 1} MANUAL ${expr.getText(sf).slice(0, 120)}`);
    return;
  }
  const call = callFor(area, parts, sf);
  if (call) edits.push({ start: expr.getStart(sf), end: expr.getEnd(), text: call });
}

function processFile(file: string) {
  const sf = program.getSourceFile(path.resolve(root, file))!;
  const area = areaOf(file);
  const edits: Edit[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isJsxElement(node) || ts.isJsxFragment(node)) processChildren(node.children);
    if (ts.isJsxAttribute(node) && node.initializer && visibleAttrs.has(node.name.getText(sf))) {
      const attr = node.name.getText(sf);
      if (ts.isStringLiteral(node.initializer)) {
        if (!skipAttrValue(attr, node.initializer.text)) {
          const call = callFor(area, [node.initializer.text], sf);
          if (call) edits.push({ start: node.initializer.getStart(sf), end: node.initializer.getEnd(), text: `{${call}}` });
        }
      } else if (ts.isJsxExpression(node.initializer) && node.initializer.expression) {
        convertValueExpr(node.initializer.expression, area, sf, edits);
      }
    }
    if (ts.isPropertyAssignment(node) && node.name.getText(sf) === 'cell' && ts.isArrowFunction(node.initializer) && !ts.isBlock(node.initializer.body)) {
      convertValueExpr(node.initializer.body as ts.Expression, area, sf, edits);
    }
    if (ts.isPropertyAssignment(node) && visibleProps.has(node.name.getText(sf).replace(/['"]/g, '')) && insideFunction(node)) {
      convertValueExpr(node.initializer, area, sf, edits);
    } else if (ts.isPropertyAssignment(node) && (visibleProps.has(node.name.getText(sf).replace(/['"]/g, '')) || inGetterVar(node)) && literalParts(node.initializer)) {
      if (insideFunction(node)) convertValueExpr(node.initializer, area, sf, edits);
      else {
        // module level: read at render time through a getter, since messages load after the modules
        const parts = literalParts(node.initializer)!;
        const call = callFor(area, parts, sf);
        if (call) edits.push({ start: node.getStart(sf), end: node.getEnd(), text: `get ${node.name.getText(sf)}() { return ${call}; }` });
        report.push(`${file}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1} module-level getter ${node.getText(sf).slice(0, 80)}`);
      }
    }
    if (ts.isBindingElement(node) && node.initializer && insideFunction(node) && /^(title|label|placeholder|description|caption|message|empty|text|heading|hint)$|(Label|Title|Text|Message)$/.test(node.name.getText(sf))) {
      convertValueExpr(node.initializer, area, sf, edits);
    }
    if (ts.isCallExpression(node) && insideFunction(node)) {
      const callee = node.expression.getText(sf);
      const table = ({ notify: [1], setError: [0], 'window.confirm': [0], confirm: [0], setMessage: [0], setNotice: [0], setBreadcrumb: [] } as Record<string, number[]>);
      const positions = Object.hasOwn(table, callee) ? table[callee] : [];
      for (const position of positions) if (node.arguments[position]) convertValueExpr(node.arguments[position], area, sf, edits);
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && node.left.getText(sf) === 'document.title' && ts.isTemplateExpression(node.right)) {
      const tpl = node.right;
      const last = tpl.templateSpans[tpl.templateSpans.length - 1];
      if (tpl.templateSpans.length === 1 && last.expression.getText(sf) === 'product.name' && last.literal.text === '' && tpl.head.text.endsWith(' - ')) {
        const key = keyFor(area, tpl.head.text.slice(0, -3));
        edits.push({ start: tpl.getStart(sf), end: tpl.getEnd(), text: `\`\${t('${key}')} - \${product.name}\`` });
      }
    }
    ts.forEachChild(node, visit);
  };
  const processChildren = (children: ts.NodeArray<ts.JsxChild>) => {
    let run: ts.JsxChild[] = [];
    const flush = () => {
      const texts = run.filter((c) => (ts.isJsxText(c) && hasLetter(c.text)) || (ts.isJsxExpression(c) && c.expression && (literalParts(c.expression) ?? []).some((p) => typeof p === 'string' && hasLetter(p))));
      if (texts.length) {
        const parts: Array<string | ts.Expression> = [];
        for (const c of run) {
          if (ts.isJsxText(c)) parts.push(cleanJsxText(c.text));
          else if (ts.isJsxExpression(c) && c.expression) parts.push(...(literalParts(c.expression) ?? [c.expression]));
        }
        // leading/trailing spaces stay outside the message, as explicit {' '}
        let first = parts[0], last = parts[parts.length - 1];
        let lead = '', trail = '';
        if (typeof first === 'string' && /^\s/.test(first)) { lead = "{' '}"; parts[0] = first.replace(/^\s+/, ''); }
        last = parts[parts.length - 1];
        if (typeof last === 'string' && /\s$/.test(last)) { trail = "{' '}"; parts[parts.length - 1] = last.replace(/\s+$/, ''); }
        const call = callFor(area, parts.filter((p) => p !== ''), sf);
        if (call) {
          // keep the original whitespace that JSX drops (newlines) around the run
          const start = run[0].getStart(sf, false), end = run[run.length - 1].getEnd();
          const firstRaw = ts.isJsxText(run[0]) ? run[0].text : '';
          const lastRaw = ts.isJsxText(run[run.length - 1]) ? run[run.length - 1].text : '';
          const preNl = /^\s*\n\s*/.exec(firstRaw)?.[0] ?? '';
          const postNl = /\s*\n\s*$/.exec(lastRaw)?.[0] ?? '';
          edits.push({ start: run[0].pos, end, text: `${preNl}${lead}{${call}}${trail}${postNl}` });
          void start;
        }
      }
      run = [];
    };
    for (const child of children) {
      if (ts.isJsxText(child)) run.push(child);
      else if (ts.isJsxExpression(child) && child.expression && !containsJsx(child.expression) && !(ts.isTemplateExpression(child.expression) ? child.expression.templateSpans.some((span) => containsTextLiteral(span.expression)) : !literalParts(child.expression) && containsTextLiteral(child.expression)) && (literalParts(child.expression)?.every((p) => typeof p === 'string' || stringOrNumber(p)) ?? stringOrNumber(child.expression))) run.push(child);
      else if (ts.isJsxExpression(child) && !child.expression) {
        flush(); // a comment
      } else {
        flush();
        if (ts.isJsxExpression(child) && child.expression) convertValueExpr(child.expression, area, sf, edits);
      }
    }
    flush();
  };
  visit(sf);
  // also: string literals directly in children expressions handled in processChildren via convertValueExpr
  if (!edits.length) return;
  edits.sort((a, b) => b.start - a.start);
  // drop overlapping edits (keep outermost = first seen at that position)
  let source = sf.text;
  let lastStart = Infinity;
  for (const edit of edits) {
    if (edit.end > lastStart) { report.push(`${file}: overlapping edit skipped at ${edit.start}`); continue; }
    source = source.slice(0, edit.start) + edit.text + source.slice(edit.end);
    lastStart = edit.start;
  }
  if (!/import \{[^}]*\bt\b[^}]*\} from '[^']*i18n\/messages'/.test(source)) {
    let rel = path.relative(path.dirname(file), 'src/web/app/i18n/messages').split(path.sep).join('/');
    if (!rel.startsWith('.')) rel = './' + rel;
    source = `import { t } from '${rel}';\n` + source;
  }
  if (!dryRun) writeFileSync(file, source);
  console.log(`${file}: ${edits.length} strings`);
}

for (const file of targets) processFile(file);
const sorted = Object.fromEntries(Object.entries(messages).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
if (!dryRun) writeFileSync(localeFile, JSON.stringify(sorted, null, 2) + '\n');
console.log(report.join('\n'));
