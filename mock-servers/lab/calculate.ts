import { ToolError } from "../kit/errors.ts";
import { EXPRESSION_CONSTANTS, EXPRESSION_FUNCTIONS, ExpressionError, evaluateExpression } from "./expression.ts";

/** What builtin `calculator` and lab `calculate` both return. */
export const calculationOutputSchema = {
  type: "object",
  properties: {
    expression: { type: "string", description: "The expression as received." },
    result: { type: "number", description: "The value (fractional results keep 15 significant digits)." },
  },
  required: ["expression", "result"],
  additionalProperties: false,
};

/** One line for tool descriptions: what the shared parser understands. */
export const EXPRESSION_SYNTAX =
  `Operators + - * / % (modulo; "15%" alone means 0.15) and ^ (power, right-associative), parentheses, ` +
  `functions ${EXPRESSION_FUNCTIONS.join(", ")} (trig in radians; log = base 10, ln = natural), constants ${EXPRESSION_CONSTANTS.join(", ")}.`;

/** Evaluates with the shared recursive-descent parser; parse and math errors become tool errors. */
export function calculate(expression: string): { expression: string; result: number } {
  try {
    return { expression, result: evaluateExpression(expression) };
  } catch (error) {
    if (error instanceof ExpressionError) throw new ToolError(error.code, `${error.message} in "${expression}"`);
    throw error;
  }
}
