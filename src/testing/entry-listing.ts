/**
 * A unit's entry file as a list: which names other units may import from it, each with the file it
 * takes the name from. The TypeScript parser reads the export and import statements (a regular
 * expression cannot follow `export *` or tell `a as b` apart); it only parses, so it stays fast.
 */

import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import ts from "typescript";

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
}

function hasExportModifier(statement: ts.Statement): boolean {
  return (
    ts.canHaveModifiers(statement) &&
    (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
  );
}

/** The names a module's own declarations export (`export function f`, `export const a, b`, `export { x }`). */
function declaredExports(source: ts.SourceFile): string[] {
  return source.statements.flatMap((statement) => {
    if (ts.isExportDeclaration(statement))
      return !statement.moduleSpecifier && statement.exportClause && ts.isNamedExports(statement.exportClause)
        ? statement.exportClause.elements.map((element) => element.name.text)
        : [];
    if (!hasExportModifier(statement)) return [];
    if (ts.isVariableStatement(statement))
      return statement.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : []));
    const name = (statement as ts.DeclarationStatement).name;
    return name && ts.isIdentifier(name) ? [name.text] : [];
  });
}

/** The names a module exports, however it exports them (its own declarations, re-exports, `export *`). */
export function exportedNames(file: string, seen: Set<string> = new Set()): string[] {
  if (seen.has(file) || !existsSync(file)) return [];
  seen.add(file);
  const source = parse(file);
  const reexported = source.statements.flatMap((statement) => {
    if (!ts.isExportDeclaration(statement) || !statement.moduleSpecifier) return [];
    const target = resolve(dirname(file), (statement.moduleSpecifier as ts.StringLiteral).text);
    const clause = statement.exportClause;
    if (clause === undefined) return exportedNames(target, seen);
    return ts.isNamedExports(clause) ? clause.elements.map((element) => element.name.text) : [clause.name.text];
  });
  return [...declaredExports(source), ...reexported];
}

/**
 * What an entry file lists: each name other units may import, with the file it takes the name from (the
 * entry itself for a name it declares). A name re-exported under another name is listed by its own name.
 */
export function entryListing(entry: string): Map<string, string> {
  const listing = new Map<string, string>();
  const source = parse(entry);
  for (const name of declaredExports(source)) listing.set(name, entry);
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement) || !statement.moduleSpecifier) continue;
    const target = resolve(dirname(entry), (statement.moduleSpecifier as ts.StringLiteral).text);
    const clause = statement.exportClause;
    const names =
      clause === undefined
        ? exportedNames(target)
        : ts.isNamedExports(clause)
          ? clause.elements.map((element) => (element.propertyName ?? element.name).text)
          : [];
    for (const name of names) listing.set(name, target);
  }
  return listing;
}

/** One relative import statement of a file and the names it takes; `*` for a whole module. */
export interface NamedImport {
  readonly specifier: string;
  readonly target: string;
  readonly names: readonly string[];
}

/** The relative imports and re-exports of a file with the names each takes (dynamic imports included). */
export function namedImports(file: string): NamedImport[] {
  const source = parse(file);
  const found: NamedImport[] = [];
  const add = (specifier: string, names: string[]) => {
    if (specifier.startsWith(".")) found.push({ specifier, target: resolve(dirname(file), specifier), names });
  };
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      const specifier = (node.moduleSpecifier as ts.StringLiteral).text;
      if (ts.isImportDeclaration(node)) {
        const clause = node.importClause;
        const bindings = clause?.namedBindings;
        const names = [
          ...(clause?.name ? ["default"] : []),
          ...(bindings && ts.isNamespaceImport(bindings) ? ["*"] : []),
          ...(bindings && ts.isNamedImports(bindings)
            ? bindings.elements.map((element) => (element.propertyName ?? element.name).text)
            : []),
        ];
        add(specifier, names);
      } else {
        const clause = node.exportClause;
        add(
          specifier,
          clause && ts.isNamedExports(clause)
            ? clause.elements.map((element) => (element.propertyName ?? element.name).text)
            : ["*"],
        );
      }
      return;
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteral(argument)) {
        const holder = ts.isAwaitExpression(node.parent) ? node.parent.parent : node.parent;
        const names =
          ts.isVariableDeclaration(holder) && ts.isObjectBindingPattern(holder.name)
            ? holder.name.elements.map((element) => ((element.propertyName ?? element.name) as ts.Identifier).text)
            : ["*"];
        add(argument.text, names);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
