import type { Ajv } from "ajv";
import { ToolError } from "../../kit/errors.ts";
import type { ToolSpec } from "../../kit/types.ts";
import { createAjv } from "../../kit/validation.ts";
import { splitSentences } from "../sentences.ts";
import type { LabState } from "../state.ts";

const MAX_EXTRACT_CHARS = 200_000;

export const summarizeTool: ToolSpec<LabState> = {
  name: "summarize",
  description:
    "Summarize text by keeping its first N sentences (an extractive lead summary). The sentence splitter knows " +
    "abbreviations such as 'Dr.', 'e.g.' and 'approx.'.",
  inputSchema: {
    type: "object",
    properties: {
      text: { type: "string", description: "The text to summarize." },
      sentences: {
        type: "integer",
        minimum: 1,
        maximum: 20,
        default: 3,
        description: "How many sentences to keep (default 3).",
      },
    },
    required: ["text"],
  },
  outputSchema: {
    type: "object",
    properties: {
      summary: { type: "string", description: "The kept sentences joined with spaces." },
      sentences: { type: "array", items: { type: "string" } },
      total_sentences: { type: "integer", description: "Sentences in the whole text." },
    },
    required: ["summary", "sentences", "total_sentences"],
    additionalProperties: false,
  },
  annotations: { title: "Summarize", readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args) => {
    const all = splitSentences(String(args.text));
    if (all.length === 0) throw new ToolError("invalid_argument", "The text is empty; there is nothing to summarize");
    const kept = all.slice(0, Number(args.sentences ?? 3));
    return { summary: kept.join(" "), sentences: kept, total_sentences: all.length };
  },
};

/** Index just past the object that opens at `start` (string-aware brace matching), or -1 when it never closes. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === "\\") i += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
    } else if (char === "{") {
      depth += 1;
    } else if (char === "}") {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** The first balanced {...} in the text that parses as JSON. */
export function findFirstJsonObject(text: string): { value: Record<string, unknown> } | undefined {
  for (let start = text.indexOf("{"); start !== -1; start = text.indexOf("{", start + 1)) {
    const end = balancedEnd(text, start);
    if (end === -1) continue;
    try {
      return { value: JSON.parse(text.slice(start, end)) as Record<string, unknown> };
    } catch {
      // Not JSON (e.g. "{broken json}"): try the next opening brace.
    }
  }
  return undefined;
}

function compileUserSchema(ajv: Ajv, schema: Record<string, unknown>) {
  try {
    return ajv.compile(schema);
  } catch (error) {
    throw new ToolError("invalid_schema", `The schema is not a valid JSON Schema: ${(error as Error).message}`);
  }
}

export const extractJsonTool: ToolSpec<LabState> = {
  name: "extract_json",
  description:
    "Find the first JSON object embedded in text (e.g. an email or an HTTP body), parse it and optionally validate " +
    "it against a JSON Schema.",
  inputSchema: {
    type: "object",
    properties: {
      text: { type: "string", description: "Text that contains a JSON object somewhere." },
      schema: {
        type: "object",
        description: 'Optional JSON Schema the object must match, e.g. {"type":"object","required":["order_id"]}.',
      },
    },
    required: ["text"],
  },
  outputSchema: {
    type: "object",
    properties: {
      found: { type: "boolean" },
      value: { type: ["object", "null"], description: "The parsed object, or null when none was found." },
      valid: { type: "boolean", description: "Found and (when a schema was given) matches it." },
      errors: { type: "array", items: { type: "string" }, description: "Why it is not valid." },
    },
    required: ["found", "value", "valid", "errors"],
    additionalProperties: false,
  },
  annotations: { title: "Extract JSON", readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args) => {
    const text = String(args.text);
    if (text.length > MAX_EXTRACT_CHARS) {
      throw new ToolError("too_large", `The text has ${text.length} characters; the limit is ${MAX_EXTRACT_CHARS}`);
    }
    const schema = args.schema as Record<string, unknown> | undefined;
    // A fresh ajv per call: user schemas must not collide by $id or pile up in a shared cache.
    const validate = schema ? compileUserSchema(createAjv(), schema) : undefined;
    const found = findFirstJsonObject(text);
    if (!found) return { found: false, value: null, valid: false, errors: ["no JSON object found in the text"] };
    if (!validate || validate(found.value)) return { found: true, value: found.value, valid: true, errors: [] };
    const errors = (validate.errors ?? []).map(
      (error) => `${error.instancePath || "(root)"} ${error.message ?? error.keyword}`,
    );
    return { found: true, value: found.value, valid: false, errors };
  },
};
