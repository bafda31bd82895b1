/**
 * Cross-checks items against the servers they name: every expected tool exists on one of the item's
 * servers, every expected parameter exists in the tool's inputSchema, the gold call gives every required
 * parameter and validates against the schema (types, enums, formats), every acceptable value fits the
 * parameter's schema, and state checks name a known check of that server.
 */
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import {
  alternativesOf,
  concreteAlternatives,
  goldArgs,
  goldOfAlternative,
  goldValue,
  isMatcher,
  mayOmit,
} from "../../gold-value.ts";
import type { ToolDefinition } from "../../tool-protocol/types.ts";
import type { DatasetProblem } from "./errors.ts";
import { datasetRegex } from "./regex.ts";
import { isToolCallCheck } from "./state-checks.ts";
import type { DatasetItem, LoadedItem } from "./types.ts";

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export interface ServerSurface {
  tools: readonly ToolDefinition[];
  /** State-check names per server (mock servers only; a server absent here has none to check). */
  checks: Readonly<Record<string, readonly string[]>>;
  /** Whether a tool changes nothing (its annotation, or the registry's `read_only_tools`): tool-call checks need one. */
  readOnly: (tool: ToolDefinition) => boolean;
}

/** Why a gold array often arrives unwrapped: an array in the dataset lists alternatives. */
const WRAP_HINT =
  'an array value is written wrapped, as its one alternative: "contents": [["a", "b"]] (datasets/README.md)';

type Properties = Record<string, Record<string, unknown>>;

/** Compiled validators, one per tool (whole arguments) and per (tool, parameter). */
class SchemaCache {
  private readonly ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  private readonly cache = new Map<string, ValidateFunction>();

  constructor() {
    addFormats(this.ajv);
  }

  validator(key: string, schema: Record<string, unknown>): ValidateFunction {
    let validate = this.cache.get(key);
    if (!validate) {
      const { $id: _id, $schema: _dialect, ...plain } = schema;
      validate = this.ajv.compile(plain);
      this.cache.set(key, validate);
    }
    return validate;
  }

  errors(validate: ValidateFunction): string {
    const text = this.ajv.errorsText(validate.errors, { dataVar: "" }).replace(/^\//, "");
    const wantsArray = (validate.errors ?? []).some(
      (error) => error.keyword === "type" && String(error.params.type).split(",").includes("array"),
    );
    return wantsArray ? `${text}; ${WRAP_HINT}` : text;
  }
}

export function crossCheck(items: readonly LoadedItem[], surface: ServerSurface): DatasetProblem[] {
  const byName = new Map(surface.tools.map((tool) => [tool.name, tool]));
  const servers = new Set([...surface.tools.map((tool) => tool.server), ...Object.keys(surface.checks)]);
  const schemas = new SchemaCache();
  const problems: DatasetProblem[] = [];
  for (const loaded of items) {
    const report = (message: string) =>
      problems.push({ file: loaded.file, line: loaded.line, id: loaded.item.id, message });
    checkItem(loaded.item, { byName, servers, schemas, checks: surface.checks }, report);
  }
  return [...problems, ...toolCallCheckProblems(items, surface.tools, surface.readOnly)];
}

interface Context {
  byName: Map<string, ToolDefinition>;
  servers: Set<string>;
  schemas: SchemaCache;
  checks: Readonly<Record<string, readonly string[]>>;
}

function checkItem(item: DatasetItem, context: Context, report: (message: string) => void): void {
  for (const server of item.servers) {
    if (!context.servers.has(server)) report(`servers: unknown server "${server}"`);
  }
  item.calls.forEach((call, index) => {
    const where = `calls[${index}] ${call.tool}`;
    const tool = context.byName.get(call.tool);
    if (!tool) {
      report(`${where}: unknown tool (no connected server lists it)`);
      return;
    }
    if (!item.servers.includes(tool.server)) report(`${where}: the tool is on server "${tool.server}", not in servers`);
    const properties = (tool.inputSchema.properties ?? {}) as Properties;
    const required = (tool.inputSchema.required ?? []) as string[];
    for (const [param, expected] of Object.entries(call.args)) {
      const property = properties[param];
      if (!property) {
        report(
          `${where}: unknown parameter "${param}" (the tool has: ${Object.keys(properties).join(", ") || "none"})`,
        );
        continue;
      }
      const validate = context.schemas.validator(`${tool.server}/${tool.name}/${param}`, property);
      for (const alternative of concreteAlternatives(expected)) {
        const value = goldOfAlternative(alternative, property);
        if (!validate(value)) {
          report(
            `${where}: ${param} = ${JSON.stringify(value)} does not fit the parameter's schema (${context.schemas.errors(validate)})`,
          );
        }
      }
      for (const problem of regexProblems(expected)) report(`${where}: ${param}: ${problem}`);
    }
    for (const param of required) {
      if (!(param in call.args) || !goldValue(call.args[param]).present) {
        report(`${where}: required parameter "${param}" has no gold value`);
      } else if (mayOmit(call.args[param])) {
        report(`${where}: required parameter "${param}" is marked may-be-omitted ("")`);
      }
    }
    const validateCall = context.schemas.validator(`${tool.server}/${tool.name}`, tool.inputSchema);
    if (!validateCall(goldArgs(call, tool.inputSchema))) {
      report(
        `${where}: the gold call does not validate against the tool's inputSchema (${context.schemas.errors(validateCall)})`,
      );
    }
  });
  for (const name of [...(item.forbidden ?? []), ...(item.tools ?? [])]) {
    if (!context.byName.has(name)) report(`unknown tool "${name}" in forbidden/tools`);
  }
  for (const param of item.missing ?? []) {
    const known = (item.forbidden ?? []).some((name) => {
      const properties = (context.byName.get(name)?.inputSchema.properties ?? {}) as Properties;
      return param in properties;
    });
    if (!known) report(`missing: "${param}" is not a parameter of any forbidden tool`);
  }
  if (item.answer?.regex !== undefined) {
    for (const problem of regexProblems({ regex: item.answer.regex })) report(`answer.regex: ${problem}`);
  }
  (item.state ?? []).forEach((check, index) => {
    if (isToolCallCheck(check)) return;
    const names = context.checks[check.server];
    if (!names) report(`state[${index}]: server "${check.server}" has no state checks`);
    else if (!names.includes(check.expect)) {
      report(`state[${index}]: "${check.expect}" is not a check of ${check.server} (it has: ${names.join(", ")})`);
    }
  });
}

/**
 * An item's tool-call state checks against the connected tools: the tool is on the named server, it is
 * read-only (a check must not change what it checks), its arguments fit its schema, and its regex compiles.
 */
export function toolCallCheckProblems(
  items: readonly LoadedItem[],
  tools: readonly ToolDefinition[],
  readOnly: (tool: ToolDefinition) => boolean,
): DatasetProblem[] {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const schemas = new SchemaCache();
  const problems: DatasetProblem[] = [];
  for (const { item, file, line } of items) {
    const report = (message: string) => problems.push({ file, line, id: item.id, message });
    (item.state ?? []).forEach((check, index) => {
      if (!isToolCallCheck(check)) return;
      const { server, tool: name, args } = check.call;
      const where = `state[${index}] ${server}.${name}`;
      const tool = byName.get(name);
      if (!tool || tool.server !== server) {
        report(`${where}: server "${server}" lists no tool "${name}"`);
        return;
      }
      if (!readOnly(tool)) {
        report(
          `${where}: a state check must call a read-only tool (readOnlyHint, or the registry entry's read_only_tools)`,
        );
      }
      const validate = schemas.validator(`${server}/${name}`, tool.inputSchema);
      if (!validate(args)) report(`${where}: args do not fit the tool's inputSchema (${schemas.errors(validate)})`);
      if (check.expect.regex !== undefined) {
        for (const problem of regexProblems({ regex: check.expect.regex })) report(`${where}: regex: ${problem}`);
      }
    });
  }
  return problems;
}

/** Every `{regex}` among an expected value's alternatives, and inside its dict alternatives, must compile. */
function regexProblems(expected: unknown): string[] {
  const problems: string[] = [];
  const visit = (alternative: unknown, depth: number) => {
    if (isMatcher(alternative) && "regex" in (alternative as object)) {
      const source = (alternative as { regex: string }).regex;
      try {
        datasetRegex(source);
      } catch (error) {
        problems.push(`regex ${JSON.stringify(source)} does not compile (${(error as Error).message})`);
      }
    } else if (depth === 0 && typeof alternative === "object" && alternative !== null && !Array.isArray(alternative)) {
      for (const inner of Object.values(alternative)) for (const nested of alternativesOf(inner)) visit(nested, 1);
    }
  };
  for (const alternative of alternativesOf(expected)) visit(alternative, 0);
  return problems;
}
