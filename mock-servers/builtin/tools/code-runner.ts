import type { ToolSpec } from "../../kit/types.ts";
import { SANDBOX_MEMORY_LIMIT_BYTES } from "../sandbox.ts";
import { runSandboxBounded } from "../sandbox-workers.ts";

const DEFAULT_TIMEOUT_MS = 1000;
const MAX_TIMEOUT_MS = 5000;

export const codeRunnerTool: ToolSpec<unknown> = {
  name: "code_runner",
  description:
    "Run JavaScript in a sandbox and return what it printed with console.log plus the value of the last expression. " +
    "Plain ECMAScript only: no require/import, file system, network or process. " +
    `Time limit ${DEFAULT_TIMEOUT_MS} ms by default (max ${MAX_TIMEOUT_MS}), memory limit ${SANDBOX_MEMORY_LIMIT_BYTES / 1024 / 1024} MB.`,
  inputSchema: {
    type: "object",
    properties: {
      code: {
        type: "string",
        description: "JavaScript source, e.g. 'const xs = [3, 1, 2]; console.log(xs.sort()); xs.length'.",
      },
      language: { type: "string", enum: ["javascript"], default: "javascript", description: "Only javascript." },
      timeout_ms: {
        type: "integer",
        minimum: 1,
        maximum: MAX_TIMEOUT_MS,
        default: DEFAULT_TIMEOUT_MS,
        description: `Time limit in milliseconds (default ${DEFAULT_TIMEOUT_MS}, max ${MAX_TIMEOUT_MS}).`,
      },
    },
    required: ["code"],
  },
  outputSchema: {
    type: "object",
    properties: {
      stdout: {
        type: "string",
        description: "Everything written with console.log/info/warn/error, one call per line.",
      },
      result: { description: "Value of the last expression as JSON (null when undefined or on error)." },
      error: { type: "string", description: "The uncaught error, e.g. \"ReferenceError: 'require' is not defined\"." },
      timedOut: { type: "boolean", description: "True when the time limit stopped the code." },
    },
    required: ["stdout", "result", "timedOut"],
    additionalProperties: false,
  },
  annotations: { title: "Code runner (JavaScript sandbox)", readOnlyHint: true, openWorldHint: false },
  handler: (args, { now }) => runSandboxBounded(String(args.code), Number(args.timeout_ms ?? DEFAULT_TIMEOUT_MS), now),
};
