/**
 * What the prompt shows of each tool: its name and, where the prompt says, its required parameters,
 * the example values it was shown and its enums. Read from the prompt's own text — the tool lines of
 * the planner and ReAct (`name(param="example", …) - description`, or OnsetLab's placeholder form
 * `name(param="...", n=N, m="a" or "b") - description`), the JSON Schema lines of the jsonl
 * system prompt, the native `tools` — because that is all a model sees.
 */

import { BoundedCache, cached } from "../../memo.ts";
import type { ChatTool } from "../types.ts";

export interface ShownTool {
  name: string;
  /** Required parameters; undefined when the prompt lists names only (the router). */
  required?: string[];
  /** An example value per parameter, as the prompt showed it. */
  examples: Record<string, unknown>;
  enums: Record<string, unknown[]>;
}

/** `name(p="x", m="a"|"b") - description` → the tool; undefined for a line that is not one. */
export function readToolLine(line: string): ShownTool | undefined {
  const open = line.indexOf("(");
  const name = line.slice(0, open).trim();
  if (open <= 0 || !/^[A-Za-z_][\w.-]*$/.test(name)) return undefined;
  const tool: ShownTool = { name, required: [], examples: {}, enums: {} };
  let at = open + 1;
  while (at < line.length && line[at] !== ")") {
    const param = /^\s*([A-Za-z_][\w.-]*)=/.exec(line.slice(at));
    if (!param?.[1]) return tool;
    at += param[0].length;
    const values: unknown[] = [];
    for (;;) {
      const scanned = scanJsonValue(line, at) ?? scanPlaceholder(line, at);
      if (!scanned) return tool;
      values.push(scanned.value);
      at = scanned.end;
      // enum alternatives: `"a"|"b"`, or OnsetLab's `"a" or "b"`
      const alternative = /^(?:\||\s+or\s+)/.exec(line.slice(at));
      if (!alternative) break;
      at += alternative[0].length;
    }
    // OnsetLab's longer enums: `"first" (or: second, third...)`
    const more = /^\s*\(or: ([^)]*)\)/.exec(line.slice(at));
    if (more) {
      values.push(
        ...(more[1] ?? "")
          .replace(/\.\.\.$/, "")
          .split(", ")
          .filter(Boolean),
      );
      at += more[0].length;
    }
    tool.required?.push(param[1]);
    tool.examples[param[1]] = values[0];
    if (values.length > 1) tool.enums[param[1]] = values;
    while (line[at] === "," || line[at] === " ") at += 1;
  }
  return tool;
}

/** The tool lines of a prompt section: from the line after `heading` to the first blank line. */
export function readToolSection(prompt: string, heading: string): ShownTool[] {
  const start = prompt.indexOf(heading);
  if (start < 0) return [];
  let from = start + heading.length;
  if (prompt[from] === "\n") from += 1;
  const end = prompt.indexOf("\n\n", from);
  return readToolLines(prompt.slice(from, end < 0 ? undefined : end));
}

/**
 * Every tool line of a text, whatever heading it is under: an agent definition's own ReAct prompt lists
 * the tools where its author put them, and a model reads them there.
 */
export function readToolLinesIn(text: string): ShownTool[] {
  return readToolLines(text);
}

/** A tool's line repeats on every turn of a run and in every run that shows the tool: read once. */
const readLines = new BoundedCache<string, ShownTool | null>(4096);

function readToolLines(section: string): ShownTool[] {
  const tools: ShownTool[] = [];
  for (const line of section.split("\n")) {
    const tool = readLines.get(line, () => readToolLine(line) ?? null);
    if (tool) tools.push(tool);
  }
  return tools;
}

/** Tool schemas are the connected servers' own objects, shown again on every request: read each once. */
const readSchemas = new WeakMap<object, Map<string, ShownTool>>();

/** A tool given as JSON Schema (native `tools`, the jsonl system prompt's lines). */
export function toolFromSchema(tool: Pick<ChatTool, "name" | "parameters">): ShownTool {
  const byName = cached(readSchemas, tool.parameters, () => new Map<string, ShownTool>());
  return cached(byName, tool.name, () => readSchema(tool));
}

function readSchema(tool: Pick<ChatTool, "name" | "parameters">): ShownTool {
  const properties = asRecord(tool.parameters.properties);
  const required = Array.isArray(tool.parameters.required)
    ? tool.parameters.required.filter((name): name is string => typeof name === "string")
    : [];
  const examples: Record<string, unknown> = {};
  const enums: Record<string, unknown[]> = {};
  for (const [name, raw] of Object.entries(properties)) {
    const schema = asRecord(raw);
    if (Array.isArray(schema.enum)) enums[name] = schema.enum;
    const example = Array.isArray(schema.examples) ? schema.examples[0] : (enums[name]?.[0] ?? schema.default);
    if (example !== undefined) examples[name] = example;
  }
  return { name: tool.name, required, examples, enums };
}

/** System prompts repeat across a run (one per configuration): their tool lines are read once. */
const readPrompts = new BoundedCache<string, ShownTool[]>(64);
const JSONL_TOOLS_HEADING = "Tools (arguments as JSON Schema):";

/** The jsonl system prompt's tool lines, one JSON object each, from its tools heading on (all of it without one). */
export function readJsonlSystemTools(system: string): ShownTool[] {
  return readPrompts.get(system, () =>
    parseJsonToolLines(system.slice(Math.max(0, system.indexOf(JSONL_TOOLS_HEADING)))),
  );
}

function parseJsonToolLines(text: string): ShownTool[] {
  return text.split("\n").flatMap((line) => {
    if (!line.startsWith("{")) return [];
    try {
      const parsed = JSON.parse(line) as { name?: unknown; parameters?: unknown };
      if (typeof parsed.name !== "string") return [];
      return [toolFromSchema({ name: parsed.name, parameters: asRecord(parsed.parameters) })];
    } catch {
      return []; // a line of prose, not a tool
    }
  });
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** OnsetLab's abstract values (`N`, `[...]`, `{...}`), read as the text the prompt shows. */
function scanPlaceholder(text: string, start: number): { value: unknown; end: number } | undefined {
  const found = /^\s*(N|\[\.\.\.\]|\{\.\.\.\})(?=[,)\s])/.exec(text.slice(start));
  return found ? { value: found[1], end: start + found[0].length } : undefined;
}

/**
 * Reads one JSON value starting at `start` (after optional spaces): a string, number, literal, array or
 * object. Returns undefined when no value starts there.
 */
function scanJsonValue(text: string, start: number): { value: unknown; end: number } | undefined {
  let at = start;
  while (text[at] === " ") at += 1;
  const first = text[at];
  if (first === undefined) return undefined;
  let end: number;
  if (first === '"') end = stringEnd(text, at);
  else if (first === "[" || first === "{") end = bracketEnd(text, at);
  else {
    const literal = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(at));
    if (!literal) return undefined;
    end = at + literal[0].length;
  }
  if (end < 0) return undefined;
  try {
    return { value: JSON.parse(text.slice(at, end)), end };
  } catch {
    return undefined;
  }
}

function stringEnd(text: string, open: number): number {
  for (let at = open + 1; at < text.length; at++) {
    if (text[at] === "\\") at += 1;
    else if (text[at] === '"') return at + 1;
  }
  return -1;
}

function bracketEnd(text: string, open: number): number {
  let depth = 0;
  for (let at = open; at < text.length; at++) {
    const char = text[at];
    if (char === '"') {
      at = stringEnd(text, at) - 1;
      if (at < 0) return -1;
    } else if (char === "[" || char === "{") depth += 1;
    else if (char === "]" || char === "}") {
      depth -= 1;
      if (depth === 0) return at + 1;
    }
  }
  return -1;
}
