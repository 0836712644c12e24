import ts from 'typescript';
import { readFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
const files = execSync("find src/web -name '*.tsx' -not -path '*/settings/*' -not -path '*/reports/*'").toString().trim().split('\n');
const attrs = new Map<string, string[]>();
const props = new Map<string, string[]>();
for (const f of files) {
  const sf = ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const visit = (n: ts.Node) => {
    if (ts.isJsxAttribute(n) && n.initializer) {
      let s: string | undefined;
      if (ts.isStringLiteral(n.initializer)) s = n.initializer.text;
      else if (ts.isJsxExpression(n.initializer) && n.initializer.expression && (ts.isStringLiteral(n.initializer.expression) || ts.isNoSubstitutionTemplateLiteral(n.initializer.expression) || ts.isTemplateExpression(n.initializer.expression))) s = n.initializer.expression.getText();
      if (s !== undefined) { const k = n.name.getText(); attrs.set(k, [...(attrs.get(k) ?? []), s]); }
    }
    if (ts.isPropertyAssignment(n) && (ts.isStringLiteral(n.initializer) || ts.isTemplateExpression(n.initializer))) {
      const k = n.name.getText(); props.set(k, [...(props.get(k) ?? []), n.initializer.getText()]);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
}
for (const [k, v] of [...attrs].sort((a, b) => b[1].length - a[1].length)) console.log('ATTR', k, v.length, JSON.stringify([...new Set(v)].slice(0, 6)));
for (const [k, v] of [...props].sort((a, b) => b[1].length - a[1].length)) console.log('PROP', k, v.length, JSON.stringify([...new Set(v)].slice(0, 6)));
