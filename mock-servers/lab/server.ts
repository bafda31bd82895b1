import type { ServerSpec } from "../kit/types.ts";
import { labChecks } from "./checks.ts";
import { createLabState, type LabState } from "./state.ts";
import { calculateTool } from "./tools/calculate.ts";
import { fileReadTool, fileWriteTool } from "./tools/files.ts";
import { finishTool } from "./tools/finish.ts";
import { httpGetTool } from "./tools/http.ts";
import { queryDbTool } from "./tools/query-db.ts";
import { extractJsonTool, summarizeTool } from "./tools/text.ts";

export type { LabState } from "./state.ts";

export const labServer: ServerSpec<LabState> = {
  name: "lab",
  version: "1.0.0",
  purpose:
    "A small agent lab: files under /lab, canned HTTP responses, a calculator, a read-only SQLite geography " +
    "database, summarize, extract_json and finish.",
  createState: createLabState,
  tools: [
    fileReadTool,
    fileWriteTool,
    httpGetTool,
    calculateTool,
    queryDbTool,
    summarizeTool,
    extractJsonTool,
    finishTool,
  ],
  checks: labChecks,
};
