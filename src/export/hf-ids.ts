/**
 * vLLM serves Hugging Face repositories, not Ollama tags: the known models of models.yaml mapped to the
 * instruct checkpoint Ollama's tag is quantised from. Anything else needs `--hf-id`.
 */
import type { AgentFileModel } from "../config/agent-file.ts";
import { ExportFlagError } from "./errors.ts";

export const HF_IDS: Readonly<Record<string, string>> = {
  "qwen2.5:1.5b": "Qwen/Qwen2.5-1.5B-Instruct",
  "qwen2.5:3b": "Qwen/Qwen2.5-3B-Instruct",
  "qwen2.5:7b": "Qwen/Qwen2.5-7B-Instruct",
  "llama3.2:3b": "meta-llama/Llama-3.2-3B-Instruct",
  "llama3.1:8b": "meta-llama/Llama-3.1-8B-Instruct",
};

/** The Hugging Face id: `--hf-id`, the table, or an openai entry's model that already is one (`org/name`). */
export function huggingFaceId(model: AgentFileModel, given?: string): string {
  if (given !== undefined) {
    if (!/^[\w.-]+\/[\w.-]+$/.test(given)) {
      throw new ExportFlagError(
        "BAD_HF_ID",
        `--hf-id must be a Hugging Face repository like Qwen/Qwen2.5-3B-Instruct, not "${given}"`,
      );
    }
    return given;
  }
  const known = HF_IDS[model.name] ?? HF_IDS[model.model];
  if (known) return known;
  if (model.provider === "openai" && /^[\w.-]+\/[\w.-]+$/.test(model.model)) return model.model;
  throw new ExportFlagError(
    "UNKNOWN_HF_ID",
    `--format docker-vllm: no Hugging Face id known for --model ${model.name} (known: ${Object.keys(HF_IDS).join(", ")}); give one with --hf-id ORG/NAME`,
  );
}
