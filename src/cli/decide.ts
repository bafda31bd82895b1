/**
 * `decide --config NAME --input FILE [--json]`: the pipeline's deterministic decisions (rule route,
 * intent check asked, tools shown, plans parsed, rescues) on the input's queries, plans and rescue
 * cases, with no model called — the contract of docs/schemas/decide-input.schema.json and
 * decide-output.schema.json, which the OnsetLab fidelity check (`../shared/onsetlab-fidelity/check`) uses.
 */
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { z } from "zod";
import { type DecideInput, type DecideOutput, decide } from "../agent/decide.ts";
import { loadModelsConfig, resolveConfiguration } from "../config/models-yaml.ts";
import { FlagError } from "./flags.ts";
import { compactTable } from "./table.ts";

interface DecideFlags {
  config: string;
  input: string;
  models?: string;
  json?: boolean;
}

const toolSchema = z.looseObject({
  server: z.string().min(1),
  name: z.string().min(1),
  description: z.string().optional(),
  inputSchema: z.looseObject({}).optional(),
});
const inputSchema = z.looseObject({
  tools: z.array(toolSchema),
  items: z.array(z.looseObject({ id: z.string(), query: z.string(), servers: z.array(z.string()) })).optional(),
  plans: z
    .array(z.looseObject({ key: z.string(), query: z.string(), text: z.string(), tools: z.array(z.string()) }))
    .optional(),
  rescue: z
    .array(
      z.looseObject({
        key: z.string(),
        query: z.string(),
        tool: z.string(),
        args: z.record(z.string(), z.unknown()),
        missing: z.string(),
        tools: z.array(z.string()),
      }),
    )
    .optional(),
});

export function registerDecideCommand(program: Command): void {
  program
    .command("decide")
    .description("a configuration's deterministic decisions on given queries, plans and rescue cases (no model)")
    .requiredOption("--config <name>", "a configuration from models.yaml, e.g. onsetlab")
    .requiredOption(
      "--input <file>",
      "the input: {tools, items, plans, rescue} (docs/schemas/decide-input.schema.json)",
    )
    .option("--models <file>", "a models.yaml other than the repository's")
    .option("--json", "print the decisions as one JSON object (docs/schemas/decide-output.schema.json)")
    .action((flags: DecideFlags) => {
      const models = loadModelsConfig(flags.models);
      const config = resolveConfiguration(models, { configName: flags.config });
      const output = decide(readInput(flags.input), config, flags.config);
      process.stdout.write(flags.json ? `${JSON.stringify(output)}\n` : summary(output));
    });
}

function readInput(file: string): DecideInput {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new FlagError("BAD_INPUT", `--input ${file}: cannot read it (${(error as NodeJS.ErrnoException).code})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new FlagError("BAD_INPUT", `--input ${file}: not JSON (${(error as Error).message})`);
  }
  const parsed = inputSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join(".") || "(top level)";
    throw new FlagError(
      "BAD_INPUT",
      `--input ${file}: ${path}: ${issue?.message} (see docs/schemas/decide-input.schema.json)`,
    );
  }
  const input = parsed.data;
  return {
    ...input,
    tools: input.tools.map((tool) => ({
      server: tool.server,
      name: tool.name,
      description: tool.description ?? "",
      inputSchema: tool.inputSchema ?? { type: "object", properties: {} },
      annotations: {},
    })),
  };
}

function summary(output: DecideOutput): string {
  const routes = new Map<string, number>();
  for (const item of output.items) routes.set(item.route, (routes.get(item.route) ?? 0) + 1);
  const table = compactTable({ head: ["decisions", "count"] });
  for (const [route, count] of routes) table.push([`route ${route}`, String(count)]);
  table.push(["intent check asked", String(output.items.filter((item) => item.intentCheck).length)]);
  table.push(["plans parsed", String(output.plans.length)]);
  table.push([
    "steps rejected",
    String(output.plans.flatMap((plan) => plan.steps).filter((step) => step.error).length),
  ]);
  table.push(["rescues patched", `${output.rescue.filter((r) => r.patched).length}/${output.rescue.length}`]);
  return `decide --config ${output.config} (no model called; --json for every decision)\n${table.toString()}\n`;
}
