// Which error codes a case expects, read from its source with the TypeScript
// parser: the string literal passed as the code to expectError(...). Reading
// the calls, rather than a hand-kept list in the metadata, means the coverage
// rule counts what the cases actually assert.
import ts from 'typescript';

const EXPECTATIONS = new Set(['expectError']);

function calleeName(expression: ts.Expression): string | null {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text;
  return null;
}

export function expectedCodes(source: string, fileName = 'case.ts'): string[] {
  const sourceFile = ts.createSourceFile(fileName, source, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const codes = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const name = calleeName(node.expression);
      const code = node.arguments[1];
      if (name !== null && EXPECTATIONS.has(name) && code && (ts.isStringLiteral(code) || ts.isNoSubstitutionTemplateLiteral(code)))
        codes.add(code.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return [...codes].sort();
}
