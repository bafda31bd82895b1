import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOOL_ERROR_CODES } from "../kit/errors.ts";
import { openTestServer, type TestServer } from "../kit/testing/index.ts";
import { runInSandbox } from "./sandbox.ts";
import { type BuiltinState, builtinServer } from "./server.ts";

let server: TestServer<BuiltinState>;
beforeAll(async () => {
  server = await openTestServer(builtinServer);
});
afterAll(async () => {
  await server.close();
});

const run = (code: string, extra: Record<string, unknown> = {}) => server.ok("code_runner", { code, ...extra });

describe("code_runner", () => {
  it("captures console output and the value of the last expression", async () => {
    expect(
      await run(
        "const xs = [3, 1, 2]; console.log('sorted', xs.sort()); console.log({ n: xs.length }); xs.map((x) => x * 10)",
      ),
    ).toEqual({
      stdout: 'sorted [1,2,3]\n{"n":3}\n',
      result: [10, 20, 30],
      timedOut: false,
    });
    // The completion value of a script is its last evaluated expression statement, as in a REPL.
    expect(await run("let total = 0; for (let i = 1; i <= 100; i++) total += i;")).toMatchObject({ result: 5050 });
    expect(await run("const unused = 1;")).toMatchObject({ result: null });
    expect(await run("'done'")).toMatchObject({ result: "done", stdout: "" });
  });

  it("settles a returned promise", async () => {
    expect(await run("(async () => { await null; return 6 * 7; })()")).toMatchObject({ result: 42 });
  });

  it("reports guest exceptions without the guest stack", async () => {
    expect(await run("console.log('before'); throw new TypeError('bad input')")).toEqual({
      stdout: "before\n",
      result: null,
      error: "TypeError: bad input",
      timedOut: false,
    });
    expect(await run("let x = ;")).toMatchObject({ error: expect.stringMatching(/^SyntaxError/) });
  });

  it("is deterministic: Math.random is seeded and Date is the fixed clock", async () => {
    const code = "[Math.random(), Math.random(), Date.now(), new Date().toISOString()]";
    const first = await run(code);
    expect(await run(code)).toEqual(first);
    expect((first.result as unknown[]).slice(2)).toEqual([
      Date.parse("2026-03-16T09:30:00Z"),
      "2026-03-16T09:30:00.000Z",
    ]);
    expect(await run("new Date('2020-01-02T03:04:05Z').getUTCFullYear()")).toMatchObject({ result: 2020 });
  });

  it.each([
    ["require('fs')", "ReferenceError: 'require' is not defined"],
    ["process.exit(1)", "ReferenceError: 'process' is not defined"],
    ["fetch('https://example.com')", "ReferenceError: 'fetch' is not defined"],
    ["import('fs')", "ReferenceError: could not load module 'fs'"],
    ["globalThis.constructor.constructor('return process')()", "ReferenceError: 'process' is not defined"],
    ["new Function('return this')().process.env", "TypeError: cannot read property 'env' of undefined"],
    [
      "typeof std === 'undefined' && typeof os === 'undefined' ? null.x : 0",
      "TypeError: cannot read property 'x' of null",
    ],
  ])("contains escape attempt %s", async (code, error) => {
    expect(await run(code)).toEqual({ stdout: "", result: null, error, timedOut: false });
  });

  it("exposes nothing of the host on the guest global object", async () => {
    const names = (await run("Object.getOwnPropertyNames(globalThis)")).result as string[];
    expect(names).toContain("console");
    const hostNames = /^(process|require|module|exports|fetch|XMLHttpRequest|__hostPrint|print|std|os|Deno|Bun)$/;
    expect(names.filter((name) => hostNames.test(name))).toEqual([]);
  });

  it("stops an infinite loop at the time limit", async () => {
    const started = performance.now();
    expect(await run("console.log('start'); while (true) {}", { timeout_ms: 200 })).toEqual({
      stdout: "start\n",
      result: null,
      error: "TimeoutError: execution exceeded the 200 ms time limit",
      timedOut: true,
    });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("stops runaway recursion and allocation inside the sandbox", async () => {
    expect(await run("function f() { return f() + 1; } f()")).toMatchObject({
      error: "InternalError: stack overflow",
      timedOut: false,
    });
    expect(
      await run("const xs = []; for (;;) xs.push({ i: xs.length, s: 'x' + xs.length });", { timeout_ms: 5000 }),
    ).toMatchObject({
      error: expect.stringMatching(/memory limit exceeded \(32 MB\)/),
      timedOut: false,
    });
  });

  it("refuses a timeout above the maximum and other languages", async () => {
    expect(await server.call("code_runner", { code: "1", timeout_ms: 60_000 })).toMatchObject({
      kind: "rpc_error",
      code: -32602,
    });
    const python = await server.call("code_runner", { code: "print(1)", language: "python" });
    expect(python.kind === "rpc_error" && python.message).toMatch(/must be one of javascript/);
  });

  it("keeps working after failures (each run gets a fresh runtime)", async () => {
    await run("globalThis.leak = 1; while (true) {}", { timeout_ms: 50 });
    expect(await run("typeof leak")).toMatchObject({ result: "undefined" });
  });

  it("bounds the host's memory: a guest filling arrays gets out of memory at the capped wasm heap", async () => {
    expect(await run("let a = []; while (true) a.push(new Array(100000).fill(1))", { timeout_ms: 5000 })).toMatchObject(
      {
        error: "RangeError: memory limit exceeded (32 MB)",
        timedOut: false,
      },
    );
    expect(await run("1 + 1")).toMatchObject({ result: 2 });
  });

  it("reports a QuickJS abort (deep nesting) as a deterministic failure, then runs on a fresh worker", async () => {
    const outcome = await server.call("code_runner", { code: "eval('('.repeat(50000) + '1' + ')'.repeat(50000))" });
    expect(outcome).toMatchObject({ kind: "rpc_error", code: TOOL_ERROR_CODES.deterministicFailure });
    expect(outcome.kind === "rpc_error" && outcome.message).toMatch(/Aborted/);
    expect(await run("typeof JSON")).toMatchObject({ result: "object" });
  });

  it("truncates a flood of output", async () => {
    const result = await runInSandbox("for (let i = 0; i < 10000; i++) console.log('line ' + i)", {
      timeoutMs: 2000,
      now: new Date(0),
    });
    expect(result.stdout.length).toBeLessThan(17_000);
    expect(result.stdout).toMatch(/output truncated at 16000 characters/);
  });
});
