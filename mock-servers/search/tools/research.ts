import type { ToolSpec } from "../../kit/types.ts";
import type { SearchState } from "../corpus.ts";
import { searchCorpus } from "../engine.ts";
import { bestSentence } from "../passages.ts";
import { indexOf } from "../ranking.ts";
import { requestIdFor, responseTime } from "../request-meta.ts";

type ResearchModel = "mini" | "pro";

/** How many sources each research model reads. */
const SOURCES: Record<ResearchModel, number> = { mini: 3, pro: 6 };
/** "auto" picks pro for long, multi-part tasks, like Tavily's router does. */
const AUTO_PRO_WORDS = 15;

function resolveModel(model: string | undefined, input: string): ResearchModel {
  if (model === "mini" || model === "pro") return model;
  return input.trim().split(/\s+/).length > AUTO_PRO_WORDS ? "pro" : "mini";
}

/** tavily_research (listed at tavily-mcp 0.2.19, absent from the 0.2.12 surface): a cited report built from the corpus. */
export const researchTool: ToolSpec<SearchState> = {
  name: "tavily_research",
  description:
    "Perform comprehensive research on a given topic or question. Use this tool when you need to gather information from multiple sources to answer a question or complete a task. Returns a detailed response based on the research findings. Rate limit: 20 requests per minute.",
  inputSchema: {
    type: "object",
    properties: {
      input: { type: "string", description: "A comprehensive description of the research task" },
      model: {
        type: "string",
        enum: ["mini", "pro", "auto"],
        description:
          "Defines the degree of depth of the research. 'mini' is good for narrow tasks with few subtopics. 'pro' is good for broad tasks with many subtopics. 'auto' automatically selects the best model.",
        default: "auto",
      },
    },
    required: ["input"],
  },
  outputSchema: {
    type: "object",
    properties: {
      request_id: { type: "string" },
      status: { type: "string", enum: ["completed"] },
      model: { type: "string", enum: ["mini", "pro"] },
      content: { type: "string" },
      sources: {
        type: "array",
        items: {
          type: "object",
          properties: { title: { type: "string" }, url: { type: "string" } },
          required: ["title", "url"],
        },
      },
      response_time: { type: "number" },
    },
    required: ["request_id", "status", "content", "sources"],
  },
  annotations: { title: "Tavily Research", readOnlyHint: true, openWorldHint: true },
  handler: (rawArgs, { state }) => {
    const input = String(rawArgs.input);
    const model = resolveModel(rawArgs.model as string | undefined, input);
    const index = indexOf(state.documents);
    const hits = searchCorpus(state.documents, input).slice(0, SOURCES[model]);
    const findings = hits.map(({ doc }, i) => `- ${bestSentence(doc, input, index)} [${i + 1}]`);
    const sources = hits.map(({ doc }) => ({ title: doc.title, url: doc.url }));
    const content =
      hits.length === 0
        ? `# ${input}\n\nNo relevant sources were found for this research task.`
        : [
            `# ${input}`,
            "## Key findings",
            findings.join("\n"),
            "## Sources",
            sources.map((source, i) => `[${i + 1}] ${source.title} — ${source.url}`).join("\n"),
          ].join("\n\n");
    return {
      request_id: requestIdFor("tavily_research", rawArgs),
      status: "completed",
      model,
      content,
      sources,
      response_time: responseTime(model === "pro" ? 48.5 : 17.2),
    };
  },
};
