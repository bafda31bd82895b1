import type { ToolSpec } from "../../kit/types.ts";
import { calculate, calculationOutputSchema, EXPRESSION_SYNTAX } from "../../lab/calculate.ts";

export const calculatorTool: ToolSpec<unknown> = {
  name: "calculator",
  description: `Evaluate a mathematical expression and return the number. ${EXPRESSION_SYNTAX}`,
  inputSchema: {
    type: "object",
    properties: {
      expression: {
        type: "string",
        description: "Mathematical expression, e.g. '15 * 0.20', 'sqrt(16) + 2^3', '(120 - 45) / 3'.",
      },
    },
    required: ["expression"],
  },
  outputSchema: calculationOutputSchema,
  annotations: { title: "Calculator", readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args) => calculate(String(args.expression)),
};
