/**
 * An agent definition: a user's own system prompt, written as a Liquid template (Jinja-like `{{ }}` and
 * `{% %}`), driving one of the loop protocols (`native`, `jsonl`, `react`) in place of its built-in prompt.
 * The definition travels inside the resolved configuration (plain JSON: its text, hash and injected
 * files), so a run records exactly what was measured and worker threads get it unchanged. Reading the
 * file and its front matter is the configuration layer's job (src/config/agent-definition.ts); here the
 * template is checked and rendered.
 *
 * liquidjs: maintained, typed, no dependencies; `strictVariables` makes an unknown variable an error, every
 * parse and render error carries its line and column, and its static analysis finds unknown variables in
 * branches a trial render would not take.
 */

import { createHash } from "node:crypto";
import { Liquid, type Template } from "liquidjs";
import { BoundedCache } from "../memo.ts";
import { AgentError } from "./errors.ts";

/** The loop protocols a definition can drive. */
export const AGENT_PROTOCOLS = ["native", "jsonl", "react"] as const;
export type AgentProtocol = (typeof AGENT_PROTOCOLS)[number];

/** A file passed with `--files`: its text as injected (capped), and how much of it there was. */
export interface InjectedFile {
  /** As the user gave it. */
  path: string;
  /** The file name without folders. */
  name: string;
  /** The text the template gets: the file's, cut at the cap with a note saying so. */
  content: string;
  /** The file's whole length in characters. */
  chars: number;
  truncated: boolean;
  /** sha256 of the whole file, 16 hex digits. */
  hash: string;
}

export interface AgentDefinition {
  /** The front matter's `name`, else the file's name without `.md`. */
  name: string;
  /** The file as the user named it (messages and records). */
  file: string;
  protocol: AgentProtocol;
  /** The whole file as read: front matter and template. */
  text: string;
  /** sha256 of `text`, 16 hex digits: a changed prompt is a different measurement. */
  hash: string;
  /** The line of the file where the template starts (1-based), so errors name the file's own lines. */
  bodyLine: number;
  /** Only these tools are shown and callable (front matter `tools`); absent: every connected tool. */
  tools?: string[];
  /** Characters of `--files` text injected: per file, and all files together; the rest is cut. */
  fileChars: { each: number; total: number };
  files: InjectedFile[];
}

/**
 * What a template can read. `history`: the conversation's earlier turns as text (`User: …` /
 * `Assistant: …` lines), empty for a single-turn item.
 */
export interface TemplateValues {
  date: string;
  tools: string;
  history: string;
  files: readonly InjectedFile[];
}

export const TEMPLATE_VARIABLES: readonly (keyof TemplateValues)[] = ["date", "tools", "history", "files"];

/** A template that does not parse, reads an unknown variable, or fails to render: `file:line:column: …`. */
export class TemplateError extends AgentError {}

export function definitionHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

/** The template: the file's lines from `bodyLine` on. */
export function templateBody(definition: Pick<AgentDefinition, "text" | "bodyLine">): string {
  return definition.text
    .split("\n")
    .slice(definition.bodyLine - 1)
    .join("\n");
}

const engine = new Liquid({
  strictVariables: true,
  strictFilters: true,
  ownPropertyOnly: true,
  // no {% include %} / {% render %} from disk: what a prompt reads is the template and the files passed
  templates: {},
});

/** Parsed templates by definition hash: every query of a run renders the same one. */
const parsed = new BoundedCache<string, Template[]>(32);

/**
 * Checks a definition's template: it parses, it reads only the known variables (in every branch), and it
 * renders with the given files. Throws a TemplateError naming the file, line and column.
 */
export function checkTemplate(definition: AgentDefinition): void {
  const template = parse(definition);
  // partials are not followed: a template cannot include any (the trial render below says so)
  const analysis = engine.analyzeSync(template, { partials: false });
  for (const [name, uses] of Object.entries(analysis.globals)) {
    if ((TEMPLATE_VARIABLES as readonly string[]).includes(name)) continue;
    const at = uses[0]?.location;
    throw new TemplateError(
      "TEMPLATE_UNKNOWN_VARIABLE",
      `${where(definition, at?.row, at?.col)}: unknown variable "${name}"; a template can read ${TEMPLATE_VARIABLES.join(", ")}`,
      { context: { file: definition.file, variable: name } },
    );
  }
  const sample = definition.files.length > 0 ? definition.files : [SAMPLE_FILE];
  renderTemplate(definition, { date: "Today is Monday.", tools: "tool", history: "", files: sample });
}

/** The filled-in prompt. Throws a TemplateError (file:line:column) when a value is missing at render time. */
export function renderTemplate(definition: AgentDefinition, values: TemplateValues): string {
  const template = parse(definition);
  try {
    return engine.renderSync(template, { ...values });
  } catch (error) {
    throw templateError(definition, error, "TEMPLATE_RENDER_FAILED");
  }
}

const SAMPLE_FILE: InjectedFile = {
  path: "notes.md",
  name: "notes.md",
  content: "text",
  chars: 4,
  truncated: false,
  hash: "0",
};

function parse(definition: AgentDefinition): Template[] {
  return parsed.get(definition.hash, () => {
    try {
      return engine.parse(templateBody(definition));
    } catch (error) {
      throw templateError(definition, error, "TEMPLATE_SYNTAX");
    }
  });
}

function templateError(definition: AgentDefinition, error: unknown, code: string): TemplateError {
  const liquid = error as { message?: string; token?: { getPosition?: () => [number, number] } };
  const [line, column] = liquid.token?.getPosition?.() ?? [];
  const message = String(liquid.message ?? error).replace(/, line:\d+, col:\d+$/, "");
  return new TemplateError(code, `${where(definition, line, column)}: ${message}`, {
    context: { file: definition.file },
    cause: error,
  });
}

/** `file:line:column` with the template's line turned into the file's. */
function where(definition: AgentDefinition, line: number | undefined, column: number | undefined): string {
  if (line === undefined) return definition.file;
  return `${definition.file}:${definition.bodyLine + line - 1}:${column ?? 1}`;
}
