import type { ServerSpec } from "../kit/types.ts";
import { calculatorTool } from "./tools/calculator.ts";
import { codeRunnerTool } from "./tools/code-runner.ts";
import { datetimeTool } from "./tools/datetime.ts";
import { randomGeneratorTool } from "./tools/random-generator.ts";
import { textProcessorTool } from "./tools/text-processor.ts";
import { unitConverterTool } from "./tools/unit-converter.ts";

/** The built-in tools hold no data and write nothing: every result is a pure function of the arguments and the clock. */
export type BuiltinState = Record<string, never>;

export const builtinServer: ServerSpec<BuiltinState> = {
  name: "builtin",
  version: "1.0.0",
  purpose:
    "OnsetLab's built-in tools: calculator, date/time, unit converter, text processor, seeded random generator and a sandboxed JavaScript runner.",
  createState: () => ({}),
  tools: [calculatorTool, datetimeTool, unitConverterTool, textProcessorTool, randomGeneratorTool, codeRunnerTool],
  checks: {},
};
