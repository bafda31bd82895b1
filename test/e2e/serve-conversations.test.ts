/**
 * `POST /run` as a conversation over a real socket: started with `messages`, continued with
 * `conversationId` over three turns with the service restarted between turns 2 and 3 (the simulator
 * answers from a conversation's gold, the mock servers run the calls), listed by `GET /conversations`;
 * bad input is a 400 naming the field (404 for an unknown id) and leaves the stored file as it was.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/serve/app.ts";
import { CONVERSATIONS_FOLDER } from "../../src/serve/conversation-store.ts";
import { benchQueryRunner } from "../../src/serve/query-runner.ts";
import { listen, type RunningServer } from "../../src/serve/server.ts";
import { HarnessService } from "../../src/serve/service.ts";

const DATASET = ["datasets/conversations/conversations.jsonl"];
/** cv-fu-001's turns: the later two refer to the repository of the first. */
const TURNS = [
  "What have people said in the comments on acme/api issue 3?",
  "What's the latest release of that same repo?",
  "List the brnaches in the same repository.",
];
// native shows every connected tool: the typo of the third turn ("brnaches") keeps list_branches out of a filter's top 8
const RUN = { model: "sim:oracle", config: "native" };

// biome-ignore lint/suspicious/noExplicitAny: response bodies, read field by field
type Body = any;
let root: string;
let server: RunningServer;

/** A fresh service over the results folder, as a restarted process would have. */
async function start(): Promise<void> {
  const service = new HarnessService({ resultsRoot: root });
  server = await listen(createApp({ service, runner: benchQueryRunner({ dataset: DATASET }) }));
}

async function request(path: string, body?: unknown): Promise<{ status: number; body: Body }> {
  const response = await fetch(
    `${server.url}${path}`,
    body === undefined
      ? {}
      : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
  );
  return { status: response.status, body: await response.json() };
}

function toolCalls(body: Body): { tool: string; args: Record<string, unknown> }[] {
  return body.result.toolCalls.map((call: Body) => ({ tool: call.tool, args: call.args }));
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "serve-conversations-"));
  await start();
});

afterAll(async () => {
  await server.close();
});

describe("POST /run conversations", () => {
  it("continues a conversation over three turns across a restart of the service", async () => {
    const first = await request("/run", { ...RUN, messages: [{ role: "user", content: TURNS[0] }] });
    expect(first.status).toBe(200);
    expect(first.body.turn).toBe(1);
    expect(toolCalls(first.body)).toEqual([
      { tool: "issue_read", args: expect.objectContaining({ owner: "acme", repo: "api", issue_number: 3 }) },
    ]);
    expect(first.body.answer).toContain("statement timeout");
    const id: string = first.body.conversationId;

    const second = await request("/run", { ...RUN, conversationId: id, query: TURNS[1] });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ conversationId: id, turn: 2 });
    expect(toolCalls(second.body)).toEqual([{ tool: "get_latest_release", args: { owner: "acme", repo: "api" } }]);
    expect(second.body.answer).toContain("v1.1.0");

    await server.close();
    await start();

    const third = await request("/run", { ...RUN, conversationId: id, query: TURNS[2] });
    expect(third.status).toBe(200);
    expect(third.body).toMatchObject({ conversationId: id, turn: 3 });
    expect(toolCalls(third.body)).toEqual([{ tool: "list_branches", args: { owner: "acme", repo: "api" } }]);
    expect(third.body.answer).toContain("feature/jwt-refresh");
    // the third turn's model saw the first two: their texts are in its prompts
    const prompts = third.body.result.modelCalls.map((call: Body) => JSON.stringify(call.prompt ?? call.messages));
    expect(prompts.some((prompt: string) => prompt.includes(TURNS[0]!) && prompt.includes(TURNS[1]!))).toBe(true);

    const listed = await request("/conversations");
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      expect.objectContaining({ id, model: "sim:oracle", config: "native", turns: 3, first: TURNS[0] }),
    ]);
    const stored = await request(`/conversations/${id}`);
    expect(stored.body.turns.map((turn: Body) => turn.user)).toEqual(TURNS);
  });

  it("refuses bad input naming the field, and keeps what is stored", async () => {
    const started = await request("/run", { ...RUN, messages: [{ role: "user", content: TURNS[0] }] });
    const id: string = started.body.conversationId;
    const file = join(root, CONVERSATIONS_FOLDER, `${id}.json`);
    const before = readFileSync(file, "utf8");

    const unknownRole = await request("/run", {
      ...RUN,
      messages: [
        { role: "user", content: TURNS[0] },
        { role: "robot", content: "hello" },
        { role: "user", content: TURNS[1] },
      ],
    });
    expect(unknownRole.status).toBe(400);
    expect(unknownRole.body.error.field).toBe("messages.1.role");
    expect(unknownRole.body.error.message).toContain("user, assistant, system, tool");

    const notUserLast = await request("/run", {
      ...RUN,
      messages: [
        { role: "user", content: TURNS[0] },
        { role: "assistant", content: "Two comments." },
      ],
    });
    expect(notUserLast.status).toBe(400);
    expect(notUserLast.body.error).toMatchObject({ field: "messages" });
    expect(notUserLast.body.error.message).toContain('"assistant"');

    const unknownId = await request("/run", { ...RUN, conversationId: "c-nobody-here", query: TURNS[1] });
    expect(unknownId.status).toBe(404);
    expect(unknownId.body.error.field).toBe("conversationId");

    const noQuery = await request("/run", { ...RUN, conversationId: id });
    expect(noQuery.status).toBe(400);
    expect(noQuery.body.error.field).toBe("query");

    const unknownTool = await request("/run", { ...RUN, conversationId: id, query: TURNS[1], allowed_tools: ["nope"] });
    expect(unknownTool.status).toBe(400);
    expect(unknownTool.body.error.field).toBe("allowed_tools");

    expect(readFileSync(file, "utf8")).toBe(before);
  });
});

describe("POST /run limits", () => {
  it("says the tool-call limit ended a run, and echoes the limits", async () => {
    const stopped = await request("/run", {
      ...RUN,
      messages: [{ role: "user", content: TURNS[0] }],
      max_tool_calls: 0,
      timeout_s: 30,
    });
    expect(stopped.status).toBe(200);
    expect(stopped.body.limits).toEqual({ max_tool_calls: 0, timeout_s: 30 });
    expect(stopped.body.stoppedBy).toBe("max_tool_calls");
    expect(stopped.body.result.toolCalls.every((call: Body) => !call.ok)).toBe(true);

    const free = await request("/run", { ...RUN, messages: [{ role: "user", content: TURNS[0] }] });
    expect(free.body.limits).toEqual({ max_tool_calls: 8, timeout_s: 120 });
    expect(free.body.stoppedBy).toBeUndefined();
  });

  it("shows only the allowed tools", async () => {
    const allowed = await request("/run", {
      ...RUN,
      messages: [{ role: "user", content: TURNS[2] }],
      allowed_tools: ["list_branches"],
    });
    expect(allowed.status).toBe(200);
    expect(allowed.body.result.tools.available).toEqual(["list_branches"]);
    expect(toolCalls(allowed.body)).toEqual([{ tool: "list_branches", args: { owner: "acme", repo: "api" } }]);
  });
});

/** cv-fu-012: turn 1 opens a pull request, turn 2 lists the open ones (and merges another). */
const WRITE_THEN_READ = [
  'In acme/api: make a branch feature/request-id, add docs/errors.md on it saying "Every error body includes request_id.", then open a PR into main titled "Document request IDs in errors".',
  "Look through the open PRs in that repo and merge the one that fixes the rate limiter.",
];
const OPENED = "Document request IDs in errors";

function listedPulls(body: Body): string {
  const call = body.result.toolCalls.find((entry: Body) => entry.tool === "list_pull_requests");
  return JSON.stringify(call?.data ?? call?.text ?? "");
}

describe("POST /run conversation state", () => {
  it("keeps the servers of a live conversation: turn 2 reads what turn 1 wrote", async () => {
    const first = await request("/run", { ...RUN, messages: [{ role: "user", content: WRITE_THEN_READ[0] }] });
    expect(first.status).toBe(200);
    expect(first.body.session).toEqual({ state: "new", replayedCalls: 0, failedReplays: 0 });
    expect(toolCalls(first.body).map((call) => call.tool)).toContain("create_pull_request");
    const second = await request("/run", {
      ...RUN,
      conversationId: first.body.conversationId,
      query: WRITE_THEN_READ[1],
    });
    expect(second.status).toBe(200);
    expect(second.body.session.state).toBe("live");
    expect(listedPulls(second.body)).toContain(OPENED);
  });

  it("replays a stored conversation's writes after a restart: turn 2 still reads what turn 1 wrote", async () => {
    const first = await request("/run", { ...RUN, messages: [{ role: "user", content: WRITE_THEN_READ[0] }] });
    await server.close();
    await start();
    const second = await request("/run", {
      ...RUN,
      conversationId: first.body.conversationId,
      query: WRITE_THEN_READ[1],
    });
    expect(second.status).toBe(200);
    expect(second.body.session).toEqual({ state: "replayed", replayedCalls: 3, failedReplays: 0 });
    expect(listedPulls(second.body)).toContain(OPENED);
  });
});
