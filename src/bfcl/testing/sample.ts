/**
 * A small BFCL folder written to a temp dir for tests: data (questions + possible answers), one
 * model's recorded results and BFCL score files, laid out as BFCL does (data/, result/<model>/,
 * score/<model>/). Each simple question exercises one pipeline stage (see OUTPUTS).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const SAMPLE_MODEL = "tiny-model";

const area = {
  name: "calc.area",
  description: "Area of a triangle.",
  parameters: {
    type: "dict",
    properties: {
      base: { type: "integer", description: "Base." },
      height: { type: "integer", description: "Height." },
      unit: { type: "string", description: "Unit." },
    },
    required: ["base", "height"],
  },
};
const factorial = {
  name: "math.factorial",
  description: "Factorial of a number.",
  parameters: { type: "dict", properties: { number: { type: "integer" } }, required: ["number"] },
};
const weather = {
  name: "get_weather",
  description: "Weather in a city.",
  parameters: {
    type: "dict",
    properties: { city: { type: "string" }, unit_system: { type: "string", enum: ["metric", "imperial"] } },
    required: ["city"],
  },
};
const volume = {
  name: "set_volume",
  description: "Set the volume.",
  parameters: { type: "dict", properties: { level: { type: "integer" } }, required: ["level"] },
};
const distance = {
  name: "distance",
  description: "Distance from the origin.",
  parameters: { type: "dict", properties: { point: { type: "tuple", items: { type: "float" } } }, required: ["point"] },
};

const fit = {
  name: "fit_line",
  description: "Fit a straight line to a series.",
  parameters: { type: "dict", properties: { x: { type: "array", items: { type: "float" } } }, required: ["x"] },
};

const user = (content: string) => [[{ role: "user", content }]];

export const SAMPLE_QUESTIONS = {
  simple: [
    { id: "simple_0", question: user("Area of a triangle with base 10 and height 5?"), function: [area] },
    { id: "simple_1", question: user("What is the factorial of 5?"), function: [factorial] },
    { id: "simple_2", question: user("Weather in Paris, metric please."), function: [weather] },
    { id: "simple_3", question: user("Set the volume to 7."), function: [volume] },
    { id: "simple_4", question: user("How far is the point (1.5, 2.5) from the origin?"), function: [distance] },
    { id: "simple_5", question: user("Fit a line to the series in data['sales']."), function: [fit] },
  ],
  parallel: [{ id: "parallel_0", question: user("Weather in Paris and in Rome?"), function: [weather] }],
  irrelevance: [{ id: "irrelevance_0", question: user("Write me a poem."), function: [area, factorial] }],
};

export const SAMPLE_ANSWERS = {
  simple: [
    { id: "simple_0", ground_truth: [{ "calc.area": { base: [10], height: [5], unit: ["cm", ""] } }] },
    { id: "simple_1", ground_truth: [{ "math.factorial": { number: [5] } }] },
    { id: "simple_2", ground_truth: [{ get_weather: { city: ["Paris"], unit_system: ["metric", ""] } }] },
    { id: "simple_3", ground_truth: [{ set_volume: { level: [7] } }] },
    { id: "simple_4", ground_truth: [{ distance: { point: [[1.5, 2.5]] } }] },
    { id: "simple_5", ground_truth: [{ fit_line: { x: ["data['sales']"] } }] },
  ],
  parallel: [
    {
      id: "parallel_0",
      ground_truth: [{ get_weather: { city: ["Paris"], unit_system: [""] } }, { get_weather: { city: ["Rome"] } }],
    },
  ],
};

/** The recorded outputs, and what happens to each in the pipeline. */
export const OUTPUTS = {
  simple: {
    simple_0: "[calc.area(base=10, height=5)]", // passes everywhere
    simple_1: "[math.factorial()]", // missing_required; rescue finds 5 in the query
    simple_2: "[get_weather(city='Paris', unitSystem='metric')]", // unexpected_param; renaming fixes it
    simple_3: '[set_volume(level="7")]', // type_error:simple; coercion fixes it
    simple_4: "[distance(point=(1.5, 2.5))]", // a tuple: passes everywhere
    simple_5: "[fit_line(x=data['sales'])]", // a variable: passes BFCL; coercion wraps it into a list and breaks it
  },
  parallel: {
    parallel_0: "[get_weather(city='Paris'), get_weather(city='Rome')]", // a list of calls: one step each
  },
} as const;

/** BFCL's verdicts on OUTPUTS (as its checker gives them). */
const SCORES = {
  simple: [
    { accuracy: 0.5, correct_count: 3, total_count: 6 },
    { id: 2, error_type: "simple_function_checker:missing_required", error: ["Missing required parameter: 'number'."] },
    { id: 3, error_type: "simple_function_checker:unexpected_param", error: ["Unexpected parameter: 'unitSystem'."] },
    { id: 4, error_type: "type_error:simple", error: ["Incorrect type for parameter 'level'."] },
  ],
  parallel: [{ accuracy: 1, correct_count: 1, total_count: 1 }],
};

const jsonl = (rows: readonly unknown[]) => `${rows.map((row) => JSON.stringify(row)).join("\n")}\n`;

export interface SampleDirs {
  root: string;
  dataDir: string;
  resultRoot: string;
  resultDir: string;
}

export function writeSample(): SampleDirs {
  const root = mkdtempSync(join(tmpdir(), "bfcl-sample-"));
  const dataDir = join(root, "data");
  const resultRoot = join(root, "result");
  const resultDir = join(resultRoot, SAMPLE_MODEL);
  const scoreDir = join(root, "score", SAMPLE_MODEL);
  for (const dir of [join(dataDir, "possible_answer"), resultDir, scoreDir]) mkdirSync(dir, { recursive: true });
  for (const [category, questions] of Object.entries(SAMPLE_QUESTIONS)) {
    writeFileSync(join(dataDir, `BFCL_v3_${category}.json`), jsonl(questions));
  }
  for (const [category, answers] of Object.entries(SAMPLE_ANSWERS)) {
    writeFileSync(join(dataDir, "possible_answer", `BFCL_v3_${category}.json`), jsonl(answers));
  }
  for (const [category, outputs] of Object.entries(OUTPUTS)) {
    const rows = Object.entries(outputs).map(([id, result]) => ({ id, result, latency: 1.5 }));
    writeFileSync(join(resultDir, `BFCL_v3_${category}_result.json`), jsonl(rows));
  }
  for (const [category, lines] of Object.entries(SCORES)) {
    writeFileSync(join(scoreDir, `BFCL_v3_${category}_score.json`), jsonl(lines));
  }
  return { root, dataDir, resultRoot, resultDir };
}
