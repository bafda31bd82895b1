/**
 * Gold tools shown, measured without a model: for every item with gold calls, whether the tools a
 * configuration shows the planner (src/agent/stage-decisions.ts `shownTools`, the code the agent runs)
 * include every gold tool, and how many server (MCP) tools it shows. Three sources:
 *   project   datasets/*.jsonl over the mock servers, in the item's session (--exposure, seed 1)
 *   byo       test/fixtures/byo: the official filesystem and memory servers from npm (never tuned on)
 *   bfcl      BFCL v4 live_multiple (real user queries with their own functions), each entry alone and
 *             with two other entries' functions as distractors (held out: never tuned on)
 *
 * A configuration with `tool_selection: model` asks `--model` (src/agent/selector.ts, the agent's
 * prompt and parser) for every item with more tools than the filter keeps; the rows then give that
 * stage's calls, tokens and model time. With `sim:<profile>` (the default, sim:slm-3b) the picks are the
 * simulator's — drawn from the gold at the profile's error rates: SIMULATED, not a model's skill.
 *
 *   pnpm exec tsx scripts/tool-retrieval.ts [--config onsetlab,onsetlab-plus] [--exposure session|own]
 *                                           [--filter N] [--axis KEY=VALUE]… [--bfcl DIR] [--json]
 *                                           [--model sim:slm-3b|NAME]
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { mockServerFactories } from "../mock-servers/index.ts";
import { parseSelectorAnswer, selectorRequest } from "../src/agent/selector.ts";
import { applySelection, selectionCandidates, shownTools } from "../src/agent/stage-decisions.ts";
import { isBuiltin } from "../src/agent/tool-schema.ts";
import type { AgentConfig } from "../src/agent/types.ts";
import type { Exposure } from "../src/bench/dataset/exposure.ts";
import { loadDataset } from "../src/bench/dataset/load.ts";
import { sessionServers } from "../src/bench/run/session.ts";
import { loadPossibleAnswers, loadQuestions } from "../src/bfcl/data.ts";
import { bfclFunctionToTool } from "../src/bfcl/import.ts";
import { loadModelsConfig, resolveConfiguration, resolveModel } from "../src/config/models-yaml.ts";
import { ClientPool } from "../src/mcp/pool.ts";
import { loadRegistries } from "../src/mcp/registry.ts";
import { createProvider } from "../src/models/factory.ts";
import type { SimGoldItem } from "../src/models/sim/index.ts";
import type { ModelProvider } from "../src/models/types.ts";
import { REPO_ROOT } from "../src/paths.ts";
import { hash32, seededRandom } from "../src/random.ts";
import type { ToolDefinition } from "../src/tool-protocol/types.ts";

interface Case {
  query: string;
  tools: ToolDefinition[];
  gold: string[];
}

interface Source {
  name: string;
  cases: Case[];
  /** What the simulator answers a selector call from (the dataset items; for BFCL, the gold tools). */
  simGold: SimGoldItem[];
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
  /** `tool_selection: model`: selector calls made, their prompt and completion tokens, model time (ms). */
  selector?: { model: string; calls: number; promptTokens: number; completionTokens: number; durationMs: number };
}

const { values } = parseArgs({
  options: {
    config: { type: "string", default: "onsetlab,onsetlab-plus" },
    exposure: { type: "string", default: "session" },
    bfcl: { type: "string", default: join(REPO_ROOT, "..", "shared", "bfcl", "v4", "data") },
    filter: { type: "string" },
    axis: { type: "string", multiple: true, default: [] },
    model: { type: "string", default: "sim:slm-3b" },
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

async function registrySource(
  name: string,
  registryFiles: string[],
  datasetFiles: string[] | undefined,
): Promise<Source> {
  const registry = loadRegistries(registryFiles);
  const pool = await ClientPool.open(registry, {
    transport: registryFiles.length ? "stdio" : "memory",
    mocks: mockServerFactories,
  });
  try {
    const tools = pool.listTools();
    const names = registry.servers.map((server) => server.name);
    const items = loadDataset(datasetFiles)
      .map((loaded) => loaded.item)
      .filter((item) => item.calls.length > 0);
    const cases = items.map((item) => {
      const servers = new Set(sessionServers({ item, exposure, seed: 1, registry: names }));
      return {
        query: item.query,
        tools: tools.filter((tool) => servers.has(tool.server)),
        gold: item.calls.map((call) => call.tool),
      };
    });
    return { name, cases, simGold: items };
  } finally {
    await pool.close();
  }
}

function bfclSource(name: string, dataDir: string, distractors: number): Source {
  const questions = loadQuestions(join(dataDir, "BFCL_v4_live_multiple.json"));
  const answers = loadPossibleAnswers(join(dataDir, "possible_answer", "BFCL_v4_live_multiple.json"));
  const toolsOf = (index: number) =>
    (questions[index]?.function ?? []).map((doc) => ({
      ...bfclFunctionToTool(doc),
      server: `bfcl${index}`,
      annotations: {},
    }));
  const cases = questions.flatMap((question, index) => {
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
  const simGold = cases.map((item, index) => ({
    id: `bfcl-${index}`,
    query: item.query,
    category: "single",
    route: "rewoo",
    calls: item.gold.map((tool) => ({ tool, args: {} })),
    order: "any",
  }));
  return { name, cases, simGold };
}

/** The tools shown for one case: the ranking's, or with a selector call's picks first. */
async function shownFor(
  item: Case,
  config: AgentConfig,
  model: ModelProvider | undefined,
  selector: NonNullable<Tally["selector"]> | undefined,
): Promise<Set<string>> {
  const ranked = shownTools(item.query, item.tools, config);
  const candidates = selectionCandidates(item.tools, config);
  if (!model || !selector || candidates.length === 0 || config.filter === "all") {
    return new Set(ranked.tools.map((tool) => tool.name));
  }
  const response = await model.complete(
    selectorRequest({ query: item.query, tools: candidates, limit: config.filter }),
  );
  selector.calls += 1;
  selector.promptTokens += response.usage.promptTokens;
  selector.completionTokens += response.usage.completionTokens;
  selector.durationMs += response.timings.totalMs;
  const picks = parseSelectorAnswer(response.text, candidates, config.filter);
  return new Set(applySelection(ranked, picks, item.tools, config).tools.map((tool) => tool.name));
}

async function tally(source: Source, name: string, config: AgentConfig): Promise<Tally> {
  let goldShown = 0;
  let filtered = 0;
  let filteredGoldShown = 0;
  const counts: number[] = [];
  const selects = config.toolSelection === "model";
  const model = selects
    ? createProvider(resolveModel(models, values.model), { gold: source.simGold, seed: 1 })
    : undefined;
  const selector = selects
    ? { model: values.model, calls: 0, promptTokens: 0, completionTokens: 0, durationMs: 0 }
    : undefined;
  const cases = source.cases;
  for (const item of cases) {
    const shown = await shownFor(item, config, model, selector);
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
    source: source.name,
    config: name,
    items: cases.length,
    goldShown,
    maxServerTools: Math.max(0, ...counts),
    meanServerTools: counts.reduce((sum, count) => sum + count, 0) / Math.max(1, counts.length),
    filtered,
    filteredGoldShown,
    ...(selector ? { selector } : {}),
  };
}

const sources: Source[] = [
  await registrySource(`project (${exposure})`, [], undefined),
  await registrySource(
    `byo (${exposure})`,
    [join(REPO_ROOT, "test/fixtures/byo/registry.json")],
    [join(REPO_ROOT, "test/fixtures/byo/dataset.jsonl")],
  ),
  bfclSource("bfcl live_multiple", values.bfcl, 0),
  bfclSource("bfcl live_multiple +2 entries", values.bfcl, 2),
  bfclSource("bfcl live_multiple +6 entries", values.bfcl, 6),
];
const rows: Tally[] = [];
for (const source of sources) for (const { name, config } of configs) rows.push(await tally(source, name, config));
if (values.json) process.stdout.write(`${JSON.stringify(rows)}\n`);
else {
  const pct = (part: number, whole: number) =>
    whole === 0 ? "  -  " : `${((100 * part) / whole).toFixed(1).padStart(5)}%`;
  process.stdout.write(
    "source                          config            gold shown         max/mean MCP  where filtered    selector calls, mean tokens in/out, mean ms\n",
  );
  for (const row of rows) {
    const s = row.selector;
    const mean = (total: number) => (s && s.calls > 0 ? Math.round(total / s.calls) : 0);
    const selector = s
      ? `  ${s.model}: ${s.calls} calls, ${mean(s.promptTokens)}/${mean(s.completionTokens)} tokens, ${mean(s.durationMs)} ms`
      : "";
    process.stdout.write(
      `${row.source.padEnd(32)}${row.config.padEnd(18)}${`${row.goldShown}/${row.items}`.padStart(9)} ${pct(row.goldShown, row.items)}  ${String(row.maxServerTools).padStart(3)}/${row.meanServerTools.toFixed(1).padEnd(6)}  ${`${row.filteredGoldShown}/${row.filtered}`.padStart(9)} ${pct(row.filteredGoldShown, row.filtered)}${selector}\n`,
    );
  }
}
