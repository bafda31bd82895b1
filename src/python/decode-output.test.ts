import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type DecodeResult, decodeOutput } from "./decode-output.ts";
import { py, pyRepr } from "./value.ts";

/** Calls as `name(k=repr(v), …)`: repr keeps int vs float, tuple vs list, quoting. */
function shown(result: DecodeResult): string[] | string {
  if (!result.ok) return `FAIL: ${result.reason}`;
  return result.calls.map((c) => `${c.name}(${[...c.args].map(([k, v]) => `${k}=${pyRepr(v)}`).join(", ")})`);
}

const decode = (raw: unknown) => shown(decodeOutput(raw));

describe("decodeOutput: Python prompt-mode syntax (BFCL rules)", () => {
  it.each([
    ["single call", "calc(base=10, height=5)", ["calc(base=10, height=5)"]],
    ["list of calls", "[f(a=1), g(b='x')]", ["f(a=1)", "g(b='x')"]],
    ["dotted names", "[math.factorial(number=5), a.b.c(x=1)]", ["math.factorial(number=5)", "a.b.c(x=1)"]],
    [
      "quotes and escapes",
      `f(a='it\\'s', b="say \\"hi\\"", c='\\n\\t', d=r'\\d+', e='\\x41\\u00e9')`,
      [`f(a="it's", b='say "hi"', c='\\n\\t', d='\\\\d+', e='Aé')`],
    ],
    ["True/False/None", "f(a=True, b=False, c=None)", ["f(a=True, b=False, c=None)"]],
    [
      "int and float kept apart",
      "f(a=5, b=5.0, c=1e3, d=.5, e=1_000, f=0x1F)",
      ["f(a=5, b=5.0, c=1000.0, d=0.5, e=1000, f=31)"],
    ],
    ["negative numbers", "f(a=-3, b=-2.5)", ["f(a=-3, b=-2.5)"]],
    ["BFCL negates whatever the unary operator", "f(a=+3, b=~4, c=-True)", ["f(a=-3, b=-4, c=-1)"]],
    ["tuples stay tuples", "f(a=(1, 2), b=(1,), c=())", ["f(a=(1, 2), b=(1,), c=())"]],
    [
      "nested lists and dicts",
      "f(c=[1, [2, 3]], d={'k': True, 'n': {'x': None}})",
      ["f(c=[1, [2, 3]], d={'k': True, 'n': {'x': None}})"],
    ],
    ["bare names become strings", "f(a=x, b=meters)", ["f(a='x', b='meters')"]],
    [
      "arithmetic is evaluated",
      "f(a=2**10, b=5/2, c=7//2, d=-7%3, e='ab'*2, f=4**-1)",
      ["f(a=1024, b=2.5, c=3, d=2, e='abab', f=0.25)"],
    ],
    [
      "nested call without keywords → source text",
      "f(a=np.array([1,2]), b=g( 1,'x' ))",
      ["f(a='np.array([1, 2])', b=\"g(1, 'x')\")"],
    ],
    ["nested call with keywords → {name: {args}}", "f(a=g(k=1, j='x'))", ["f(a={'g': {'k': 1, 'j': 'x'}})"]],
    ["subscript → source text", "f(a=data[0], b=m[1:2, ::3])", ["f(a='data[0]', b='m[(1:2, ::3)]')"]],
    ["ellipsis → '...'", "f(a=...)", ["f(a='...')"]],
    ["positional arguments dropped silently", "f(1, 'x', a=2)", ["f(a=2)"]],
    ["repeated keyword keeps the last value", "f(a=1, b=2, a=3)", ["f(a=3, b=2)"]],
    ["backticks, newlines, spaces trimmed", "```\n[f(a=1)]\n```", ["f(a=1)"]],
    ["wrapping quotes trimmed", "'[f(a=1)]'", ["f(a=1)"]],
    ["newlines inside brackets are fine", "f(a=[1,\n2])", ["f(a=[1, 2])"]],
    ["line continuation", "f(a=1,\\\nb=2)", ["f(a=1, b=2)"]],
    ["comments", "f(a=1)  # done", ["f(a=1)"]],
    ["implicit string concatenation", "f(a='ab' \"cd\")", ["f(a='abcd')"]],
    ["a set of calls is read like BFCL (its elts)", "{f(a=1), g(b=2)}", ["f(a=1)", "g(b=2)"]],
  ])("%s", (_label, raw, expected) => {
    expect(decode(raw)).toEqual(expected);
  });

  it.each([
    ["stray text", "Sure! Here you go: [f(a=1)]"],
    ["markdown bold", "**f(a=1)**"],
    ["empty list", "[]"],
    ["unterminated string", "[f(a='x)]"],
    ["unmatched parenthesis", "[f(a=1))]"],
    ["positional after keyword", "f(a=1, 2)"],
    ["keyword that is a Python keyword", "f(from='NY')"],
    ["non-call element", "[f(a=1), 'text']"],
    ["set value", "f(a={1, 2})"],
    ["attribute value", "f(a=Units.METERS)"],
    ["lambda value", "f(a=lambda x: x)"],
    ["f-string value", "f(a=f'{x}')"],
    ["arithmetic on a name", "f(a=2*x)"],
    ["division by zero", "f(a=1/0)"],
    ["unary minus on a name", "f(a=-x)"],
    ["two lines", "f(a=1)\ng(b=2)"],
    ["leading indent after the bracket", "[ f(a=1) ]"],
    ["invalid decimal literal", "f(t=298K)"],
    ["leading zeros", "f(a=01)"],
    ["unhashable dict key", "f(a={[1]: 2})"],
    ["invalid character", "f(a=“x”)"],
  ])("fails to decode: %s", (_label, raw) => {
    const result = decodeOutput(raw);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason.length).toBeGreaterThan(0);
  });
});

describe("decodeOutput: function-calling forms", () => {
  it.each([
    ["{name: {args}}", [{ f: { a: 1, b: "x" } }], ["f(a=1, b='x')"]],
    ["{name: json string}", [{ f: '{"a": 1.0, "b": [1, 2]}' }], ["f(a=1.0, b=[1, 2])"]],
    ["{name, arguments} object", [{ name: "f", arguments: { a: true } }], ["f(a=True)"]],
    ["{name, arguments} string", [{ name: "m.g", arguments: '{"x": null}' }], ["m.g(x=None)"]],
    ["OpenAI tool_calls", [{ type: "function", function: { name: "f", arguments: '{"a": 2}' } }], ["f(a=2)"]],
    ["a single object", { f: {} }, ["f()"]],
  ])("%s", (_label, raw, expected) => {
    expect(decode(raw)).toEqual(expected);
  });

  it("keeps int vs float when given tagged values", () => {
    const tagged = py.list([py.dict([[py.str("f"), py.dict([[py.str("a"), py.float(3)]])]])]);
    expect(decode(tagged)).toEqual(["f(a=3.0)"]);
  });

  it.each([
    ["bad JSON arguments", [{ f: "{a: 1}" }]],
    ["arguments not an object", [{ f: "[1]" }]],
    ["not an object", ["f(a=1)"]],
    ["two keys, no name", [{ f: {}, g: {} }]],
  ])("fails: %s", (_label, raw) => {
    expect(decodeOutput(raw).ok).toBe(false);
  });
});

describe("decodeOutput lenient (not BFCL)", () => {
  it.each([
    ["stray text around a list", "Sure! Here: [f(a=1), g(b=2)] Hope it helps.", ["f(a=1)", "g(b=2)"]],
    ["code fence with prose", "I will call it.\n```python\nf(a=1)\n```", ["f(a=1)"]],
    ["bare calls in prose", "First f(a=1) then g(b=h(c=2)).", ["f(a=1)", "g(b={'h': {'c': 2}})"]],
    ["JSON text", '[{"name": "f", "arguments": {"a": 1}}]', ["f(a=1)"]],
  ])("%s", (_label, raw, expected) => {
    expect(shown(decodeOutput(raw, { lenient: true }))).toEqual(expected);
  });

  it("still reports the strict reason when nothing decodes", () => {
    expect(decodeOutput("no calls here", { lenient: true }).ok).toBe(false);
  });
});

describe("decodeOutput never throws", () => {
  const pieces = [
    "f(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "(",
    ",",
    "=",
    "a",
    "1",
    "1.5",
    "-",
    "**",
    "'",
    '"',
    "\\",
    "\n",
    " ",
    "x.y",
    "True",
    "None",
    "lambda",
    ":",
    "for",
    "in",
    "*",
    "...",
    "#",
    "`",
    "0x",
    "e5",
    "j",
    "b'",
    "f'",
    "\u201c",
    ":=",
  ];
  const mangled = fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((p) => p.join(""));

  it("on random strings, mangled call syntax and random JSON values", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 80 }), mangled, fc.jsonValue()), (input) => {
        const result = decodeOutput(input);
        expect(typeof result.ok).toBe("boolean");
        expect(decodeOutput(input, { lenient: true }).ok).toBeTypeOf("boolean");
      }),
      { numRuns: 3000 },
    );
  });

  it("on deep nesting", () => {
    expect(decodeOutput(`f(a=${"[".repeat(5000)}${"]".repeat(5000)})`).ok).toBeTypeOf("boolean");
  });
});
