/** What the viewer's browser code may load from python: the values, parser and evaluator the scorer's argument match uses. */

export type { PyNode } from "./ast.ts";
export { evaluate } from "./evaluate.ts";
export { parseExpression } from "./parser.ts";
export { unparse } from "./unparse.ts";
export { dictField, fromJson, type PyKind, type PyValue, py, pyEquals, pyRepr, pyStrRepr, toJson } from "./value.ts";
