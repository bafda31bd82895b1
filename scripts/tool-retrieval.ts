/**
 * Gold tools shown, measured without a model: for every item with gold calls, whether the tools a
 * configuration shows the planner (src/agent/stage-decisions.ts `shownTools`, the code the agent runs)
 * include every gold tool, and how many server (MCP) tools it shows. Three sources:
 *   project   datasets/*.jsonl over the mock servers, in the item's session (--exposure, seed 1)
 *   byo       test/fixtures/byo: the official filesystem and memory servers from npm (never tuned on)
 *   bfcl      BFCL v4 live_multiple (real user queries with their own functions), each entry alone and
 *             with two other entries' functions as distractors (held out: never tuned on)
 *
 *   pnpm exec tsx scripts/tool-retrieval.ts [--config onsetlab,onsetlab-plus] [--exposure session|own]
 *                                           [--filter N] [--axis KEY=VALUE]… [--bfcl DIR] [--json]
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { mockServerFactories } from "../mock-servers/index.ts";
import { shownTools } from "../src/agent/stage-decisions.ts";
import { isBuiltin } from "../src/agent/tool-schema.ts";
import type { AgentConfig } from "../src/agent/types.ts";
import type { Exposure } from "../src/bench/dataset/exposure.ts";
import { loadDataset } from "../src/bench/dataset/load.ts";
import { sessionServers } from "../src/bench/run/session.ts";
import { loadPossibleAnswers, loadQuestions } from "../src/bfcl/data.ts";
import { bfclFunctionToTool } from "../src/bfcl/import.ts";
import { loadModelsConfig, resolveConfiguration } from "../src/config/models-yaml.ts";
import { ClientPool } from "../src/mcp/pool.ts";
import { loadRegistries } from "../src/mcp/registry.ts";
import type { ToolDefinition } from "../src/mcp/types.ts";
import { REPO_ROOT } from "../src/paths.ts";
import { hash32, seededRandom } from "../src/random.ts";

interface Case {
  query: string;
  tools: ToolDefinition[];
  gold: string[];
}

interface Tally {
  source: string;
  config: string;
  items: number;
  goldShown: number;
  maxServerTools: number;
  meanServerTools: number;
  /** Items whose connected server tools were more than the filter keeps (where ranking decides). */
  filtered: number;
  filteredGoldShown: number;
}

const { values } = parseArgs({
  options: {
    config: { type: "string", default: "onsetlab,onsetlab-plus" },
    exposure: { type: "string", default: "session" },
    bfcl: { type: "string", default: join(REPO_ROOT, "..", "shared", "bfcl", "v4", "data") },
    filter: { type: "string" },
    axis: { type: "string", multiple: true, default: [] },
    json: { type: "boolean", default: false },
  },
});
const exposure = values.exposure as Exposure;
const models = loadModelsConfig();
// --axis key=value (AgentConfig keys, e.g. rankClauses=off, toolTerms=description) over the configuration
const axes = Object.fromEntries(
  values.axis.map((pair) => {
    const [key, value] = pair.split("=") as [string, string];
    return [key, value === "on" ? true : value === "off" ? false : value];
  }),
);
const cli = {
  ...axes,
  ...(values.filter ? { filter: values.filter === "all" ? ("all" as const) : Number(values.filter) } : {}),
};
const configs = values.config
  .split(",")
  .map((name) => ({ name, config: resolveConfiguration(models, { configName: name, cli }) }));

async function registryCases(registryFiles: string[], datasetFiles: string[] | undefined): Promise<Case[]> {
  const registry = loadRegistries(registryFiles);
  const pool = await ClientPool.open(registry, {
    transport: registryFiles.length ? "stdio" : "memory",
    mocks: mockServerFactories,
  });
  try {
    const tools = pool.listTools();
    const names = registry.servers.map((server) => server.name);
    return loadDataset(datasetFiles)
      .map((loaded) => loaded.item)
      .filter((item) => item.calls.length > 0)
      .map((item) => {
        const servers = new Set(sessionServers({ item, exposure, seed: 1, registry: names }));
        return {
          query: item.query,
          tools: tools.filter((tool) => servers.has(tool.server)),
          gold: item.calls.map((call) => call.tool),
        };
      });
  } finally {
    await pool.close();
  }
}

function bfclCases(dataDir: string, distractors: number): Case[] {
  const questions = loadQuestions(join(dataDir, "BFCL_v4_live_multiple.json"));
  const answers = loadPossibleAnswers(join(dataDir, "possible_answer", "BFCL_v4_live_multiple.json"));
  const toolsOf = (index: number) =>
    (questions[index]?.function ?? []).map((doc) => ({
      ...bfclFunctionToTool(doc),
      server: `bfcl${index}`,
      annotations: {},
    }));
  return questions.flatMap((question, index) => {
    const gold = (answers.get(question.id) ?? []).map((call) => call.name);
    if (gold.length === 0) return [];
    const random = seededRandom(hash32(`retrieval\u0000${question.id}`));
    const others = Array.from({ length: distractors }, () => Math.floor(random() * questions.length)).filter(
      (other) => other !== index,
    );
    const query = question.question
      .flat()
      .filter((message) => message.role === "user")
      .map((message) => message.content)
      .join("\n");
    // a distractor function named like one of the entry's is left out: names identify tools
    const own = toolsOf(index);
    const names = new Set(own.map((tool) => tool.name));
    const extra = others.flatMap(toolsOf).filter((tool) => !names.has(tool.name) && names.add(tool.name));
    return [{ query, tools: [...own, ...extra], gold }];
  });
}

function tally(source: string, name: string, config: AgentConfig, cases: readonly Case[]): Tally {
  let goldShown = 0;
  let filtered = 0;
  let filteredGoldShown = 0;
  const counts: number[] = [];
  for (const item of cases) {
    const shown = new Set(shownTools(item.query, item.tools, config).tools.map((tool) => tool.name));
    const servers = item.tools.filter((tool) => !isBuiltin(tool));
    counts.push(servers.filter((tool) => shown.has(tool.name)).length);
    const hit = item.gold.every((tool) => shown.has(tool));
    if (hit) goldShown += 1;
    if (config.filter !== "all" && servers.length > config.filter) {
      filtered += 1;
      if (hit) filteredGoldShown += 1;
    }
  }
  return {
    source,
    config: name,
    items: cases.length,
    goldShown,
    maxServerTools: Math.max(0, ...counts),
    meanServerTools: counts.reduce((sum, count) => sum + count, 0) / Math.max(1, counts.length),
    filtered,
    filteredGoldShown,
  };
}

const sources: [string, Case[]][] = [
  [`project (${exposure})`, await registryCases([], undefined)],
  [
    `byo (${exposure})`,
    await registryCases(
      [join(REPO_ROOT, "test/fixtures/byo/registry.json")],
      [join(REPO_ROOT, "test/fixtures/byo/dataset.jsonl")],
    ),
  ],
  ["bfcl live_multiple", bfclCases(values.bfcl, 0)],
  ["bfcl live_multiple +2 entries", bfclCases(values.bfcl, 2)],
  ["bfcl live_multiple +6 entries", bfclCases(values.bfcl, 6)],
];
const rows = sources.flatMap(([source, cases]) =>
  configs.map(({ name, config }) => tally(source, name, config, cases)),
);
if (values.json) process.stdout.write(`${JSON.stringify(rows)}\n`);
else {
  const pct = (part: number, whole: number) =>
    whole === 0 ? "  -  " : `${((100 * part) / whole).toFixed(1).padStart(5)}%`;
  process.stdout.write(
    "source                          config            gold shown         max/mean MCP  where filtered\n",
  );
  for (const row of rows) {
    process.stdout.write(
      `${row.source.padEnd(32)}${row.config.padEnd(18)}${`${row.goldShown}/${row.items}`.padStart(9)} ${pct(row.goldShown, row.items)}  ${String(row.maxServerTools).padStart(3)}/${row.meanServerTools.toFixed(1).padEnd(6)}  ${`${row.filteredGoldShown}/${row.filtered}`.padStart(9)} ${pct(row.filteredGoldShown, row.filtered)}\n`,
    );
  }
}
