import ts from 'typescript';
import { readFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
const files = execSync("find src/web/app src/web/ui src/web/renderers src/web/pages/account src/web/pages/actions src/web/pages/activities src/web/pages/adapters src/web/pages/auth src/web/pages/dashboards src/web/pages/discoveries src/web/pages/inventories src/web/pages/security src/web/pages/system \\( -name '*.tsx' -o -name '*.ts' \\) -not -name '*.test.tsx'").toString().trim().split('\n');
const skip = new Set(['className', 'type', 'role', 'id', 'to', 'href', 'size', 'variant', 'autoComplete', 'name', 'scope', 'value', 'key', 'aria-labelledby', 'aria-describedby', 'aria-live', 'aria-hidden', 'htmlFor', 'src', 'target', 'rel', 'inputMode', 'pattern', 'accept', 'loading', 'data-testid', 'schemaId', 'path', 'changePermission', 'listKey', 'listPath', 'kind', 'noun', 'linkTo', 'tone', 'aria-keyshortcuts', 'defaultValue', 'aria-current', 'method', 'query', 'field', 'ordering', 'direction', 'align', 'width', 'operator', 'inventory', 'entity', 'encoding']);
for (const f of files) {
  const sf = ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true, f.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const visit = (n: ts.Node) => {
    if (ts.isJsxAttribute(n) && n.initializer && ts.isStringLiteral(n.initializer) && !skip.has(n.name.getText()) && /[A-Za-z]{2,} [A-Za-z]/.test(n.initializer.text)) console.log('ATTR', f, n.name.getText(), n.initializer.text);
    if ((ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n)) && /[A-Za-z]{2,} [A-Za-z]{2,}/.test(n.text) && !/^[a-z_.]+ /.test(n.text) && !(ts.isCallExpression(n.parent) && /\bt$|console/.test(n.parent.expression.getText()))) console.log('LIT', f, sf.getLineAndCharacterOfPosition(n.getStart()).line + 1, n.text);
    ts.forEachChild(n, visit);
  };
  visit(sf);
}
