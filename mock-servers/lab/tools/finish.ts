import type { ToolSpec } from "../../kit/types.ts";
import type { LabState } from "../state.ts";

export const finishTool: ToolSpec<LabState> = {
  name: "finish",
  description: "Submit the final answer to the user's task. Call it once, when the task is done.",
  inputSchema: {
    type: "object",
    properties: { answer: { type: "string", description: "The final answer, in plain words." } },
    required: ["answer"],
  },
  outputSchema: {
    type: "object",
    properties: {
      recorded: { type: "boolean" },
      answer: { type: "string" },
      calls: { type: "integer", description: "How many times finish has been called (the last answer counts)." },
    },
    required: ["recorded", "answer", "calls"],
    additionalProperties: false,
  },
  annotations: { title: "Finish", readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  handler: (args, { state }) => {
    const answer = String(args.answer);
    state.finish = { answer, calls: (state.finish?.calls ?? 0) + 1 };
    return { recorded: true, answer, calls: state.finish.calls };
  },
};
