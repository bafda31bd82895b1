/**
 * Before the first item, for configurations with `decoding: constrained`: the strategy must be one whose
 * answers a schema can hold (`jsonl`), and a real model's server must honour the schema it is sent. A server
 * that ignores Ollama's `format` or the OpenAI API's `response_format` answers freely and returns 200, so
 * the run would silently measure free decoding under a constrained name: one request with a schema that
 * admits a single answer tells, and the run stops (exit 2) naming the configurations.
 */
import type { Configuration } from "../../config/configuration.ts";
import type { ModelEntry } from "../../config/models-yaml.ts";
import { InputError } from "../../errors.ts";
import { ModelError } from "../../models/errors.ts";
import type { ChatResponse, ModelProvider } from "../../models/types.ts";

/** A configuration asks for constrained decoding where it cannot have it. */
export class ConstrainedDecodingError extends InputError {}

/** A schema with exactly one valid answer: a server that honours it can write nothing else. */
export const PROBE_SCHEMA = {
  type: "object",
  properties: { constrained: { const: "yes" } },
  required: ["constrained"],
  additionalProperties: false,
} as const;

export async function refuseUnconstrained(
  entry: ModelEntry,
  model: ModelProvider,
  configs: Record<string, Configuration>,
): Promise<void> {
  const constrained = Object.entries(configs).filter(([, config]) => config.decoding === "constrained");
  if (constrained.length === 0) return;
  const notJsonl = constrained.filter(([, config]) => config.strategy !== "jsonl");
  if (notJsonl.length > 0) {
    const names = notJsonl.map(([name, config]) => `${name} (strategy ${config.strategy})`).join(", ");
    throw new ConstrainedDecodingError(
      "CONSTRAINED_STRATEGY",
      `configuration ${names} sets decoding: constrained, which only the jsonl strategy has (one schema per answer): set strategy: jsonl or decoding: free`,
      { context: { configs: notJsonl.map(([name]) => name) } },
    );
  }
  // the simulator (and a scripted model) honours a schema by construction; a real server is asked
  if (!model.describe) return;
  const names = constrained.map(([name]) => name);
  const field = entry.provider === "openai" ? "response_format json_schema" : "format (a JSON Schema)";
  let response: ChatResponse;
  try {
    response = await model.chat({
      stage: "jsonl",
      messages: [
        { role: "system", content: "Reply to the user." },
        { role: "user", content: "Say hello." },
      ],
      format: { ...PROBE_SCHEMA },
      options: { temperature: 0, maxTokens: 32 },
    });
  } catch (error) {
    // the server answered the warm-up: a refusal now is of the schema (e.g. a 400 from a build without grammars)
    if (!(error instanceof ModelError)) throw error;
    throw new ConstrainedDecodingError(
      "CONSTRAINED_DECODING_REFUSED",
      `model ${entry.name} refused a request with ${field} (${error.message}), so configuration ${names.join(", ")} (decoding: constrained) cannot run on it`,
      { context: { model: entry.name, configs: names }, cause: error },
    );
  }
  if (honoured(response.text)) return;
  throw new ConstrainedDecodingError(
    "CONSTRAINED_DECODING_IGNORED",
    `model ${entry.name} ignored the ${field} it was sent (it answered ${JSON.stringify(response.text.slice(0, 60))}), ` +
      `so configuration ${names.join(", ")} (decoding: constrained) cannot run on it: use a server that honours it ` +
      `(Ollama 0.5+, vLLM, llama.cpp's server, LM Studio) or leave ${names.join(", ")} out`,
    { context: { model: entry.name, configs: names, answer: response.text.slice(0, 200) } },
  );
}

function honoured(text: string): boolean {
  try {
    const value = JSON.parse(text) as unknown;
    return (
      typeof value === "object" &&
      value !== null &&
      Object.keys(value).length === 1 &&
      (value as Record<string, unknown>).constrained === "yes"
    );
  } catch {
    return false;
  }
}
