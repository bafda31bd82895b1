import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestServer, specViolations, type TestServer } from "../kit/testing/index.ts";
import { type LabState, labServer } from "./server.ts";

let server: TestServer<LabState>;
beforeEach(async () => {
  server = await openTestServer(labServer);
});
afterEach(async () => {
  await server.close();
});

const toolError = async (name: string, args: Record<string, unknown>) => {
  const outcome = await server.call(name, args);
  expect(outcome.kind).toBe("tool_error");
  return outcome.kind === "tool_error" ? outcome.text : "";
};

describe("lab server spec", () => {
  it("follows the kit's shape rules", () => {
    expect(specViolations(labServer)).toEqual([]);
  });

  it("lists its eight tools; only file_write and finish write", async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "file_read",
      "file_write",
      "http_get",
      "calculate",
      "query_db",
      "summarize",
      "extract_json",
      "finish",
    ]);
    expect(tools.filter((tool) => !tool.annotations?.readOnlyHint).map((tool) => tool.name)).toEqual([
      "file_write",
      "finish",
    ]);
  });

  it("starts identical, and reset undoes writes and keeps the (immutable) database", async () => {
    const fresh = await openTestServer(labServer);
    const initial = await fresh.dump();
    expect(await server.dump()).toEqual(initial);
    expect(initial).not.toHaveProperty("dbImage");

    await server.ok("file_write", { path: "/lab/reports/new/summary.md", content: "x", create_parents: true });
    await server.ok("finish", { answer: "done" });
    expect(await server.dump()).not.toEqual(initial);

    await server.client.callTool({ name: "__reset", arguments: {} });
    expect(await server.dump()).toEqual(initial);
    expect((await server.ok("query_db", { sql: "SELECT COUNT(*) AS n FROM cities" })).rows).toEqual([{ n: 170 }]);
    await fresh.close();
  });
});

describe("file_read", () => {
  it("reads a file by absolute or relative path", async () => {
    const absolute = await server.ok("file_read", { path: "/lab/notes/ideas.txt" });
    expect(absolute).toMatchObject({ path: "/lab/notes/ideas.txt", truncated: false });
    expect(absolute.content).toMatch(/^Ideas backlog/);
    expect(absolute.bytes).toBe(absolute.total_bytes);
    expect(await server.ok("file_read", { path: "notes/../notes/ideas.txt" })).toEqual(absolute);
  });

  it("cuts long files at max_bytes (default 8192) without splitting a character", async () => {
    const log = await server.ok("file_read", { path: "/lab/logs/app.log" });
    expect(log).toMatchObject({ bytes: 8192, truncated: true });
    expect(log.total_bytes as number).toBeGreaterThan(8192);
    const dashes = await server.ok("file_read", { path: "/lab/notes/meeting-2026-03-10.md", max_bytes: 22 });
    // "# Platform sync — …": the em dash takes bytes 16–18, so a 17-byte cut would split it.
    expect(dashes).toMatchObject({ content: "# Platform sync — 20", bytes: 22, truncated: true });
    const cut = await server.ok("file_read", { path: "/lab/notes/meeting-2026-03-10.md", max_bytes: 17 });
    expect(cut).toMatchObject({ content: "# Platform sync ", bytes: 16 });
  });

  it("refuses traversal out of /lab, directories and missing files with helpful messages", async () => {
    expect(await toolError("file_read", { path: "../etc/passwd" })).toBe(
      'access_denied: Access denied: "../etc/passwd" resolves to /etc/passwd, outside the allowed root /lab',
    );
    expect(await toolError("file_read", { path: "/lab/../../root/.ssh/id_rsa" })).toMatch(/^access_denied/);
    expect(await toolError("file_read", { path: "/labs/secret.txt" })).toMatch(/^access_denied/);
    expect(await toolError("file_read", { path: "/lab/notes" })).toBe(
      "is_directory: /lab/notes is a directory; it contains: ideas.txt, meeting-2026-03-03.md, meeting-2026-03-10.md",
    );
    expect(await toolError("file_read", { path: "/lab/notes/todo.md" })).toMatch(
      /^not_found: No such file: \/lab\/notes\/todo\.md \(\/lab\/notes contains: ideas\.txt/,
    );
  });
});

describe("file_write and the file checks", () => {
  it("writes a new file into an existing directory; the checks fail before and pass after", async () => {
    const args = { path: "/lab/reports/q1-summary.md", text: "revenue" };
    expect(await server.check("file_exists", args)).toMatchObject({ pass: false });
    expect(await server.check("file_contains", args)).toMatchObject({ pass: false });

    expect(
      await server.ok("file_write", { path: "/lab/reports/q1-summary.md", content: "# Q1\nRevenue: 469,650 USD\n" }),
    ).toEqual({ path: "/lab/reports/q1-summary.md", bytes: 26, created: true, created_directories: [] });

    expect(await server.check("file_exists", args)).toMatchObject({ pass: true });
    expect(await server.check("file_contains", args)).toMatchObject({ pass: true });
    expect(await server.check("file_contains", { ...args, text: "EBITDA" })).toMatchObject({ pass: false });
    expect((await server.ok("file_read", { path: "reports/q1-summary.md" })).content).toBe(
      "# Q1\nRevenue: 469,650 USD\n",
    );
  });

  it("replaces an existing file", async () => {
    expect(await server.ok("file_write", { path: "notes/ideas.txt", content: "just one idea\n" })).toMatchObject({
      created: false,
    });
    expect(await server.check("file_contains", { path: "/lab/notes/ideas.txt", text: "just one idea" })).toMatchObject({
      pass: true,
    });
  });

  it("needs create_parents for a missing directory", async () => {
    expect(await toolError("file_write", { path: "/lab/reports/2026/03/summary.md", content: "x" })).toBe(
      "not_found: Parent directory /lab/reports/2026/03 does not exist; pass create_parents: true to create it",
    );
    expect(await server.check("file_exists", { path: "/lab/reports/2026/03/summary.md" })).toMatchObject({
      pass: false,
    });
    expect(
      await server.ok("file_write", { path: "/lab/reports/2026/03/summary.md", content: "x", create_parents: true }),
    ).toMatchObject({ created: true, created_directories: ["/lab/reports/2026", "/lab/reports/2026/03"] });
    expect((await server.dump()) as { directories: string[] }).toMatchObject({
      directories: expect.arrayContaining(["/lab/reports/2026", "/lab/reports/2026/03"]),
    });
  });

  it("refuses writes outside /lab, onto directories and under files", async () => {
    expect(await toolError("file_write", { path: "/tmp/evil.sh", content: "x", create_parents: true })).toMatch(
      /^access_denied: .*outside the allowed root \/lab/,
    );
    expect(await toolError("file_write", { path: "../../etc/cron.d/job", content: "x" })).toMatch(/^access_denied/);
    expect(await toolError("file_write", { path: "/lab/reports", content: "x" })).toBe(
      "is_directory: /lab/reports is a directory, not a file",
    );
    expect(
      await toolError("file_write", { path: "/lab/README.md/extra.txt", content: "x", create_parents: true }),
    ).toBe("not_a_directory: Cannot write /lab/README.md/extra.txt: /lab/README.md is a file, not a directory");
    expect(await server.check("file_exists", { path: "/tmp/evil.sh" })).toMatchObject({
      pass: false,
      detail: "/tmp/evil.sh is outside /lab",
    });
  });
});

describe("http_get", () => {
  it("returns the fixture response for a known URL (query strings and hosts normalised)", async () => {
    const status = await server.ok("http_get", { url: "https://API.acme.dev/v1/status" });
    expect(status).toMatchObject({ url: "https://api.acme.dev/v1/status", status: 200, ok: true });
    expect(JSON.parse(status.body as string)).toMatchObject({ status: "ok", version: "2.14.1" });
    const weather = await server.ok("http_get", { url: "https://api.weather.example/v1/current?city=New York" });
    expect(JSON.parse(weather.body as string)).toMatchObject({ city: "New York", temperature_c: 3.1 });
  });

  it("passes through error statuses and redirects without following them", async () => {
    expect(await server.ok("http_get", { url: "https://api.acme.dev/v1/admin" })).toMatchObject({
      status: 401,
      ok: false,
    });
    expect(await server.ok("http_get", { url: "http://acme.dev" })).toMatchObject({
      status: 301,
      headers: { location: "https://acme.dev/" },
    });
    expect(await server.ok("http_get", { url: "https://status.acme.dev/" })).toMatchObject({ status: 503 });
  });

  it("answers 404 for an unknown URL and refuses what is not an http(s) URL", async () => {
    expect(await server.ok("http_get", { url: "https://api.acme.dev/v1/users/nobody" })).toMatchObject({
      status: 404,
      status_text: "Not Found",
      ok: false,
      body: "404 Not Found: https://api.acme.dev/v1/users/nobody\n",
    });
    expect(await toolError("http_get", { url: "api.acme.dev/v1/status" })).toMatch(
      /^invalid_url: .*not a valid absolute URL/,
    );
    expect(await toolError("http_get", { url: "file:///etc/passwd" })).toMatch(
      /^invalid_url: Unsupported scheme "file:"/,
    );
  });
});

describe("calculate", () => {
  it("uses the shared parser", async () => {
    expect(await server.ok("calculate", { expression: "round(412 / 350 * 100 - 100, 1)" })).toEqual({
      expression: "round(412 / 350 * 100 - 100, 1)",
      result: 17.7,
    });
    expect(await toolError("calculate", { expression: "2 ** 8" })).toMatch(/^syntax_error: .*use \^ for powers/);
  });
});

describe("summarize", () => {
  it("keeps the first N sentences, not splitting at Dr. or e.g.", async () => {
    const text = (await server.ok("file_read", { path: "/lab/docs/article-small-models.txt" })).content as string;
    const summary = await server.ok("summarize", { text, sentences: 2 });
    expect(summary.sentences).toEqual([
      "Small language models are getting surprisingly good at using tools.",
      "A model with three billion parameters can now call a calculator, search the web and file a GitHub issue, provided the tools are described clearly.",
    ]);
    expect(summary.total_sentences).toBe(12);
    const onboarding = (await server.ok("file_read", { path: "/lab/docs/onboarding.md" })).content as string;
    const lead = await server.ok("summarize", { text: onboarding, sentences: 5 });
    expect((lead.sentences as string[]).slice(3)).toEqual([
      "Dr. Alice Chen leads the team and will meet you on your first day.",
      "Bob Martinez is your onboarding buddy, e.g. for access requests, laptop setup and lunch recommendations.",
    ]);
    expect(lead.summary).toBe((lead.sentences as string[]).join(" "));
  });

  it("defaults to three sentences and refuses empty text", async () => {
    expect((await server.ok("summarize", { text: "One. Two. Three. Four." })).sentences).toEqual([
      "One.",
      "Two.",
      "Three.",
    ]);
    expect(await toolError("summarize", { text: "   " })).toMatch(/^invalid_argument: The text is empty/);
  });
});

describe("extract_json", () => {
  const orderSchema = {
    type: "object",
    required: ["order_id", "items"],
    properties: { order_id: { type: "string", pattern: "^ORD-" }, items: { type: "array", minItems: 1 } },
  };

  it("finds the first JSON object in an email and validates it", async () => {
    const email = (await server.ok("file_read", { path: "/lab/inbox/email-001.txt" })).content as string;
    const result = await server.ok("extract_json", { text: email, schema: orderSchema });
    expect(result).toMatchObject({ found: true, valid: true, errors: [] });
    expect(result.value).toMatchObject({ order_id: "ORD-2026-0311", customer: "C-1001" });
  });

  it("skips a brace pair that is not JSON and reports schema errors", async () => {
    const email = (await server.ok("file_read", { path: "/lab/inbox/email-002.txt" })).content as string;
    const result = await server.ok("extract_json", { text: email, schema: orderSchema });
    expect(result).toMatchObject({
      found: true,
      valid: false,
      value: { event: "invoice.paid", invoice_id: "INV-88412" },
      errors: ["(root) must have required property 'order_id'", "(root) must have required property 'items'"],
    });
  });

  it("handles braces inside strings and nested objects; no schema means valid when found", async () => {
    const text = 'prefix {"note": "use } and { freely", "nested": {"a": [1, {"b": 2}]}} suffix {"second": true}';
    expect(await server.ok("extract_json", { text })).toEqual({
      found: true,
      valid: true,
      errors: [],
      value: { note: "use } and { freely", nested: { a: [1, { b: 2 }] } },
    });
  });

  it("reports when there is no object, and refuses an invalid schema", async () => {
    expect(await server.ok("extract_json", { text: "no json here, just [1, 2]" })).toEqual({
      found: false,
      value: null,
      valid: false,
      errors: ["no JSON object found in the text"],
    });
    expect(await toolError("extract_json", { text: "{}", schema: { type: "banana" } })).toMatch(/^invalid_schema/);
  });
});

describe("finish and finished_with", () => {
  it("records the final answer; the check fails before and passes after", async () => {
    expect(await server.check("finished_with", { text_contains: "Canberra" })).toMatchObject({
      pass: false,
      detail: "finish was never called",
    });
    expect(await server.ok("finish", { answer: "The capital of Australia is Canberra." })).toEqual({
      recorded: true,
      answer: "The capital of Australia is Canberra.",
      calls: 1,
    });
    expect(await server.check("finished_with", { text_contains: "canberra" })).toMatchObject({ pass: true });
    expect(await server.check("finished_with", { text_contains: "Sydney" })).toMatchObject({ pass: false });
    expect((await server.dump()) as { finish: unknown }).toMatchObject({ finish: { calls: 1 } });
  });

  it("keeps the last answer when called again", async () => {
    await server.ok("finish", { answer: "Sydney" });
    expect(await server.ok("finish", { answer: "Canberra" })).toMatchObject({ calls: 2 });
    expect(await server.check("finished_with", { text_contains: "Sydney" })).toMatchObject({ pass: false });
  });
});
