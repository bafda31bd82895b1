/** The python part's public surface: a parser and evaluator for Python call syntax, and the decoder for tool calls written in it. */

export type { PyNode } from "./ast.ts";
export { BracketEnds, type DecodedCall, type DecodeResult, decodeOutput, decodePromptOutput } from "./decode-output.ts";
export { evaluate, PyEvalError } from "./evaluate.ts";
export { JsonSyntaxError, parseTaggedJson } from "./json-tagged.ts";
export { parseExpression } from "./parser.ts";
export { unparse } from "./unparse.ts";
export {
  dictField,
  fromJson,
  type PyKind,
  type PyValue,
  py,
  pyEquals,
  pyFloatRepr,
  pyRepr,
  pyStrRepr,
  toJson,
} from "./value.ts";
