/**
 * Reading an agent definition file (agents/<name>.md): YAML front matter between `---` lines naming the
 * protocol it drives and its settings, then the system prompt as a Liquid template (src/agent/definition.ts).
 * Also the files passed with `--files`, read and capped. Every problem is one line naming the file (and
 * for the template and the front matter, the line and column), as an InputError: exit 2.
 *
 * ```markdown
 * ---
 * protocol: jsonl            # native | jsonl | react
 * name: support              # default: the file name without .md
 * tools: [list_issues]       # only these tools are shown and callable (default: every connected tool)
 * limits: { jsonl_max_iterations: 4 }      # models.yaml's limit keys
 * file_chars: { each: 8000, total: 24000 } # the cap on --files text
 * ---
 * You are … {{ date }} … {{ tools }} … {% for file in files %}{{ file.content }}{% endfor %}
 * ```
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { z } from "zod";
import {
  AGENT_PROTOCOLS,
  type AgentDefinition,
  checkTemplate,
  definitionHash,
  type InjectedFile,
  TemplateError,
} from "../agent/definition.ts";
import type { AgentConfigInput } from "../agent/types.ts";
import { AgentDefinitionError } from "./errors.ts";
import { limitsSchema, positiveInt, toLimits } from "./limits.ts";
import { yamlValue } from "./yaml-text.ts";

/** The cap on injected file text when the front matter sets none: about 2k and 6k tokens. */
export const DEFAULT_FILE_CHARS = { each: 8000, total: 24000 };

const frontMatterSchema = z.strictObject({
  protocol: z.enum(AGENT_PROTOCOLS),
  name: z
    .string()
    .regex(/^[A-Za-z0-9][\w.-]*$/, "expected letters, digits, '.', '-' or '_'")
    .optional(),
  description: z.string().optional(),
  tools: z.array(z.string().min(1)).min(1).optional(),
  limits: limitsSchema.optional(),
  file_chars: z.strictObject({ each: positiveInt.optional(), total: positiveInt.optional() }).optional(),
});

/** A definition and the configuration axes it sets: its protocol as the strategy, its limits. */
export interface LoadedDefinition {
  definition: AgentDefinition;
  axes: AgentConfigInput;
}

const FENCE = /^---[ \t]*$/;

/** Reads and checks a definition file; `shown` is how messages and records name it (as the user wrote it). */
export function loadAgentDefinition(path: string, shown: string = path): LoadedDefinition {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new AgentDefinitionError(
      "AGENT_DEFINITION_UNREADABLE",
      `${shown}: cannot read the agent definition (${(error as Error).message})`,
      { context: { file: shown }, cause: error },
    );
  }
  return parseAgentDefinition(text, shown);
}

export function parseAgentDefinition(text: string, file: string): LoadedDefinition {
  const lines = text.split("\n");
  const close = FENCE.test(lines[0]?.trimEnd() ?? "")
    ? lines.findIndex((line, index) => index > 0 && FENCE.test(line.trimEnd()))
    : -1;
  if (close < 0) {
    throw new AgentDefinitionError(
      "AGENT_DEFINITION_NO_FRONT_MATTER",
      `${file}:1:1: expected front matter between two --- lines, naming the protocol (protocol: native, jsonl or react)`,
      { context: { file } },
    );
  }
  const fail = (message: string, cause?: unknown) =>
    new AgentDefinitionError("AGENT_DEFINITION_INVALID", message, { context: { file }, cause });
  // the front matter's own lines start at line 2: a YAML error's line is shifted by one
  const value = yamlValue(lines.slice(1, close).join("\n"), file, {}, (message, cause) =>
    fail(
      message.replace(/^(.*?):(\d+):(\d+):/, (_, name, line, column) => `${name}:${Number(line) + 1}:${column}:`),
      cause,
    ),
  );
  const parsed = frontMatterSchema.safeParse(value ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.path.join(".") || "(front matter)";
    const named = issue.path[0] ?? (issue.code === "unrecognized_keys" ? issue.keys[0] : undefined);
    const line = frontMatterLine(lines, close, String(named ?? ""));
    throw fail(`${file}:${line}:1: ${key}: ${issueText(issue)}`, parsed.error);
  }
  const front = parsed.data;
  const definition: AgentDefinition = {
    name: front.name ?? basename(file).replace(/\.md$/i, ""),
    file,
    protocol: front.protocol,
    text,
    hash: definitionHash(text),
    bodyLine: close + 2,
    ...(front.tools ? { tools: front.tools } : {}),
    fileChars: { ...DEFAULT_FILE_CHARS, ...front.file_chars },
    files: [],
  };
  checked(definition);
  return {
    definition,
    axes: { strategy: front.protocol, ...(front.limits ? { limits: toLimits(front.limits) } : {}) },
  };
}

/** The definition with `--files` injected (read and capped here), its template checked against them. */
export function withFiles(
  definition: AgentDefinition,
  paths: readonly string[],
  shown: readonly string[] = paths,
): AgentDefinition {
  let budget = definition.fileChars.total;
  const files = paths.map((path, index) => {
    const name = shown[index] ?? path;
    const file = injectedFile(name, readInjected(path, name), Math.min(definition.fileChars.each, budget));
    budget -= file.content.length;
    return file;
  });
  return checked({ ...definition, files });
}

function readInjected(path: string, shown: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new AgentDefinitionError(
      "FILES_UNREADABLE",
      `--files ${shown}: cannot read it (${(error as Error).message})`,
      {
        context: { file: shown },
        cause: error,
      },
    );
  }
}

/** A file's text for the template, cut at `cap` characters with a line saying how much was left out. */
export function injectedFile(path: string, text: string, cap: number): InjectedFile {
  const truncated = text.length > cap;
  const content = truncated ? `${text.slice(0, Math.max(0, cap))}\n[cut: ${cap} of ${text.length} characters]` : text;
  return { path, name: basename(path), content, chars: text.length, truncated, hash: definitionHash(text) };
}

function checked(definition: AgentDefinition): AgentDefinition {
  try {
    checkTemplate(definition);
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    throw new AgentDefinitionError(error.code, error.message, { context: error.context, cause: error });
  }
  return definition;
}

/** The line of a top-level front matter key (for an error about it), else the opening `---`. */
function frontMatterLine(lines: readonly string[], close: number, key: string): number {
  const index = key ? lines.slice(1, close).findIndex((line) => line.startsWith(`${key}:`)) : -1;
  return index < 0 ? 1 : index + 2;
}

function issueText(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_value" && issue.path[0] === "protocol") {
    return `expected one of ${AGENT_PROTOCOLS.join(", ")}`;
  }
  if (issue.code === "unrecognized_keys") {
    return `unknown key ${issue.keys.join(", ")}; expected protocol, name, description, tools, limits, file_chars`;
  }
  return issue.message;
}
