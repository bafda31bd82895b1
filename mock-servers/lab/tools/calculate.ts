import type { ToolSpec } from "../../kit/types.ts";
import { calculate, calculationOutputSchema, EXPRESSION_SYNTAX } from "../calculate.ts";
import type { LabState } from "../state.ts";

export const calculateTool: ToolSpec<LabState> = {
  name: "calculate",
  description: `Evaluate an arithmetic expression. ${EXPRESSION_SYNTAX}`,
  inputSchema: {
    type: "object",
    properties: {
      expression: { type: "string", description: "e.g. '(5500 - 1950) / 3' or 'round(412 / 350 * 100 - 100, 1)'." },
    },
    required: ["expression"],
  },
  outputSchema: calculationOutputSchema,
  annotations: { title: "Calculate", readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args) => calculate(String(args.expression)),
};
