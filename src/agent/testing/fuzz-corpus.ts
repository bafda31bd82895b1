/**
 * Hostile model outputs, for the parsers' property tests, the slow fuzz suite and `perf fuzz`: real
 * outputs of each protocol mangled the way models mangle them, and adversarial texts (deep nesting,
 * long runs of delimiters, huge strings, odd unicode, unbalanced quotes and brackets). The corpus is a
 * pure function of its seed, so the test and the benchmark read the same inputs.
 */

import fc from "fast-check";

export const PLAN_SAMPLES = [
  '#E1 = list_issues(owner="acme", repo="webapp", state="OPEN")\n#E2 = issue_read(method="get", owner="acme", repo="webapp", issue_number=#E1.issues[0].number)',
  '#E1 = issue_write(method=\'create\', owner=acme, repo=webapp, labels=["a", {\'b\': [1, 2.5e3, None]}], title="x\\"y")',
  'Plan:\n```\n#E1: get_me()\n#E2 = slack_post_message("C01", text=#E1)\n```',
];
export const REACT_SAMPLES = [
  ' Think.\nAction: list_issues\nAction Input: {"owner": "acme", "repo": "webapp"}',
  "**Thought:** x\n**Action:** `get_me`\n**Action Input:** ```json\n{}\n```\nFinal Answer: y",
  "Action: list_issues(owner=\"a\", repo='b')",
];
export const JSONL_SAMPLES = [
  '{"type":"tool_call","name":"get_me","arguments":{}}\n{"type":"final_answer","content":"x"}',
  "```json\n{type: 'tool_call', name: 'a', arguments: \"{\\\"k\\\": 1}\"}\n```",
];
/** Native tool-call arguments as an OpenAI-compatible server sends them: a JSON string. */
export const NATIVE_SAMPLES = [
  '{"owner": "acme", "repo": "webapp", "state": "OPEN"}',
  '{"method": "create", "owner": "acme", "repo": "webapp", "title": "Login fails", "labels": ["bug", {"k": [1, 2.5]}]}',
  '{"channel_id": "C01", "text": "Deploy at 5pm \\u2014 ok?"}',
];
/** BFCL prompt-mode output: Python calls. */
export const PYTHON_SAMPLES = [
  "[get_weather(city=\"Paris\", days=3), convert(amount=1.5e2, to='EUR')]",
  "calc(values=[1, -2, 3.0], opts={'round': True, 'mode': None}, pair=(1, 2))",
  'search(query="a \\"quoted\\" word", limit=10)',
];

/** Random edits that look like what goes wrong in model output: cut, dropped, doubled, stray syntax. */
export function mangled(samples: readonly string[], maxEdits = 6): fc.Arbitrary<string> {
  const syntax = fc.constantFrom(..."()[]{}\"'\\#E1=,:.`\n ".split(""), "#E", "Action:", "Final Answer:", '{"type":');
  const edit = fc.oneof(
    fc.record({ kind: fc.constant("cut" as const), at: fc.nat() }),
    fc.record({ kind: fc.constant("drop" as const), at: fc.nat(), length: fc.integer({ min: 1, max: 8 }) }),
    fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), text: syntax }),
    fc.record({ kind: fc.constant("double" as const), at: fc.nat(), length: fc.integer({ min: 1, max: 20 }) }),
  );
  return fc.tuple(fc.constantFrom(...samples), fc.array(edit, { maxLength: maxEdits })).map(([sample, edits]) =>
    edits.reduce((text, change) => {
      const at = text.length === 0 ? 0 : change.at % (text.length + 1);
      switch (change.kind) {
        case "cut":
          return text.slice(0, at);
        case "drop":
          return text.slice(0, at) + text.slice(at + change.length);
        case "insert":
          return text.slice(0, at) + change.text + text.slice(at);
        default:
          return text.slice(0, at) + text.slice(at, at + change.length) + text.slice(at);
      }
    }, sample),
  );
}

/**
 * A native answer holding tool calls as text, in the formats small models write (text-calls.ts): Hermes,
 * Mistral, fenced JSON, Llama 3 JSON, pythonic, a call inside prose — and texts that only look like calls.
 */
export const TEXT_CALL_SAMPLES = [
  'Sure.\n<tool_call>\n{"name": "list_issues", "arguments": {"owner": "acme", "repo": "webapp"}}\n</tool_call>',
  '[TOOL_CALLS][{"name": "get_me", "arguments": {}}, {"name": "list_issues", "arguments": {"owner": "a"}}]',
  '```json\n{"name": "issue_read", "arguments": {"method": "get", "owner": "acme", "issue_number": 7}}\n```',
  '<|python_tag|>{"name": "list_issues", "parameters": {"owner": "acme", "labels": ["bug", {"k": [1]}]}}',
  "[list_issues(owner=\"acme\", repo='webapp'), get_me()]",
  'I would call list_issues(owner="acme") next, but {"name": "Alice", "age": 3} is just data.',
];

/** Any string, binary noise, or a mangled sample. */
export const anyOutput = (samples: readonly string[]): fc.Arbitrary<string> =>
  fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: "binary", maxLength: 200 }), mangled(samples));

/** One corpus entry: the text and where it came from (named in the benchmark's slowest input). */
export interface FuzzInput {
  origin: string;
  text: string;
}

const ALL_SAMPLES = [
  ...PLAN_SAMPLES,
  ...REACT_SAMPLES,
  ...JSONL_SAMPLES,
  ...NATIVE_SAMPLES,
  ...PYTHON_SAMPLES,
  ...TEXT_CALL_SAMPLES,
];

/** Openers whose repetition nests: brackets of every protocol, unary chains, attribute and operator chains. */
const NESTERS = [
  "[",
  "{",
  "(",
  '{"a":',
  "[{",
  "f(a=",
  '{"type":"tool_call","name":"get_me","arguments":',
  "not ",
  "-",
  "x.",
  "1+",
  "#E1 = get_me(x=",
];
const CLOSER: Record<string, string> = { "[": "]", "{": "}", "(": ")", '{"a":': "}", "[{": "}]", "f(a=": ")" };

/** Units whose long runs broke regexes or made parsers rescan: delimiters, markers, whitespace, words. */
const REPEATED = [
  "**",
  "#E1 = get_me()\n",
  "#E1 = a(\n",
  "#E1 = list_issues(owner=",
  "Action:",
  "\nAction",
  "Action: a ",
  "Final Answer:",
  "Thought: ",
  " ",
  "\t",
  "\n",
  '"',
  "'",
  "\\",
  "```",
  "#E",
  "#E1.",
  ",",
  ":",
  "=",
  "a",
  "7",
  "1.",
  "a.",
  "(",
  ")",
  "]",
  "}",
  "x=1 ",
  '"a" ',
  "based on ",
  "(note ",
  "{}",
  "[]",
  '{"type":"tool_call","name":"get_me","arguments":{}}\n',
];

const ODD_UNICODE = ["\u{1F600}", "\uD800", "\uDC00", "\u0000", "\u202E", "\uFEFF", "\u00A0", "\u2028", "é", "\u0301"];

/** A length between 1 KB and `max`, spread evenly over the orders of magnitude. */
const size = (max: number) => fc.double({ min: 10, max: Math.log2(max), noNaN: true }).map((exp) => (2 ** exp) | 0);

const repeatTo = (unit: string, length: number) => unit.repeat(Math.max(1, Math.ceil(length / unit.length)));

/** Adversarial texts of up to `maxChars` characters. */
export function adversarialOutput(maxChars: number): fc.Arbitrary<FuzzInput> {
  const prefix = fc.constantFrom(
    "",
    ...ALL_SAMPLES,
    "#E1 = ",
    "Action: get_me\nAction Input: ",
    '{"type":"final_answer","content":"',
  );
  const deep = fc
    .tuple(fc.constantFrom(...NESTERS), fc.integer({ min: 40, max: 10_000 }), fc.boolean(), prefix)
    .map(([unit, count, closed, start]) => ({
      origin: `deep ${JSON.stringify(unit)}×${count}${closed ? " closed" : ""}`,
      text: `${start}${unit.repeat(count)}1${closed ? (CLOSER[unit] ?? "").repeat(count) : ""}`.slice(0, maxChars),
    }));
  const repeated = fc
    .tuple(
      fc.constantFrom(...REPEATED),
      size(maxChars),
      prefix,
      fc.constantFrom("", ")", "}", '"', "x", "\nFinal Answer: x"),
    )
    .map(([unit, length, start, end]) => ({
      origin: `repeat ${JSON.stringify(unit)} to ${length}`,
      text: `${start}${repeatTo(unit, length)}${end}`.slice(0, maxChars),
    }));
  const huge = fc
    .tuple(
      fc.constantFrom(
        ['#E1 = tavily_search(query="', '")'],
        ['{"type":"final_answer","content":"', '"}'],
        ['Action: tavily_search\nAction Input: {"query": "', '"}'],
        ['{"query": "', '"}'],
        ['search(query="', '")'],
      ),
      size(maxChars),
      fc.constantFrom("x", "ab ", "\\n", "\u{1F600}"),
    )
    .map(([[open, close], length, unit]) => ({
      origin: `huge string ${JSON.stringify(open)} ${length}`,
      text: `${open}${repeatTo(unit, length)}${close}`.slice(0, maxChars),
    }));
  const unicode = fc
    .tuple(fc.string({ unit: "grapheme", maxLength: 400 }), fc.constantFrom(...ODD_UNICODE), fc.nat(2000), prefix)
    .map(([noise, odd, count, start]) => ({
      origin: `unicode ${JSON.stringify(odd)}×${count}`,
      text: `${start}${noise}${odd.repeat(count)}${noise}`,
    }));
  const unbalanced = mangled(ALL_SAMPLES, 60).map((text) => ({ origin: "unbalanced (60 edits)", text }));
  return fc.oneof(deep, repeated, huge, unicode, unbalanced);
}

const PROTOCOLS: [string, readonly string[]][] = [
  ["plan", PLAN_SAMPLES],
  ["react", REACT_SAMPLES],
  ["jsonl", JSONL_SAMPLES],
  ["native", NATIVE_SAMPLES],
  ["python", PYTHON_SAMPLES],
];

/**
 * `count` inputs: four in five mutated real outputs and random strings (each protocol in turn), one in
 * five adversarial texts of up to `maxChars`.
 */
export function fuzzCorpus(count: number, seed: number, maxChars = 32_768): FuzzInput[] {
  const ordinary = fc.oneof(
    ...PROTOCOLS.map(([protocol, samples]) =>
      mangled(samples).map((text) => ({ origin: `${protocol} mutated`, text })),
    ),
    fc.string({ maxLength: 300 }).map((text) => ({ origin: "random string", text })),
    fc.string({ unit: "binary", maxLength: 200 }).map((text) => ({ origin: "random binary", text })),
  );
  const adversarial = Math.floor(count / 5);
  return [
    ...fc.sample(ordinary, { seed, numRuns: count - adversarial }),
    ...fc.sample(adversarialOutput(maxChars), { seed: seed + 1, numRuns: adversarial }),
  ];
}
