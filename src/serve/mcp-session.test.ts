import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import type { Redactor } from "../redact.ts";
import type { QueryRunner } from "./agent-routes.ts";
import { createMcpSession, type McpServices, mcpHttpApp } from "./mcp-server.ts";
import type { HarnessService } from "./service.ts";

/** A service whose benches start when the test says so, and which records what it was asked to stop. */
function slowStartingService() {
  let startCalled: () => void = () => {};
  const called = new Promise<void>((resolve) => {
    startCalled = resolve;
  });
  let finishStart: (runId: string) => void = () => {};
  const stopAsked: string[][] = [];
  const service = {
    startBench: () =>
      new Promise<string>((resolve) => {
        finishStart = resolve;
        startCalled();
      }),
    stopBenches: async (runIds: ReadonlySet<string>) => {
      stopAsked.push([...runIds]);
      return [...runIds];
    },
  };
  return { service, called, finishStart: (runId: string) => finishStart(runId), stopAsked };
}

/** The services over the fake; `noted` settles at the session's first notice line (its benches' stop). */
function servicesOf(fake: ReturnType<typeof slowStartingService>, notes: string[]) {
  let firstNote: () => void = () => {};
  const noted = new Promise<void>((resolve) => {
    firstNote = resolve;
  });
  const services: McpServices = {
    service: fake.service as unknown as HarnessService,
    runner: {} as QueryRunner,
    redactor: ((text: string) => text) as unknown as Redactor,
    notify: (line) => {
      notes.push(line);
      firstNote();
    },
  };
  return { services, noted };
}

/** A start_bench call; it may end with its session unanswered, so its rejection is taken at once (never unhandled). */
function startBench(client: Client): Promise<unknown> {
  return client
    .callTool({ name: "start_bench", arguments: { models: ["sim:slm-3b"] } })
    .catch((error: unknown) => error);
}

describe("an MCP session that ends while a start_bench is under way", () => {
  it("waits for the start, then stops that bench with the others", async () => {
    const fake = slowStartingService();
    const notes: string[] = [];
    const session = createMcpSession(servicesOf(fake, notes).services);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await session.server.connect(serverSide);
    const client = new Client({ name: "test", version: "1" });
    await client.connect(clientSide);

    const call = startBench(client);
    await fake.called;
    // the client goes away while the bench is still starting (models probed, run.json written)
    const ended = session.end();
    // the session is closed (a turn of the event loop later) before the start finishes
    await new Promise((next) => setImmediate(next));
    fake.finishStart("run-1");
    expect(await ended).toEqual(["run-1"]);
    expect(fake.stopAsked).toEqual([["run-1"]]);
    expect(notes).toEqual([
      "bench run-1 stopped: its MCP client went away; resume it with `pnpm bench --resume run-1`",
    ]);
    expect(await call).toMatchObject({ message: expect.stringMatching(/Connection closed/) });
  });
});

describe("an HTTP session deleted while one of its requests is under way", () => {
  it("answers that request 404 (session ended) instead of leaving it open, and stops the bench it started", async () => {
    const fake = slowStartingService();
    const notes: string[] = [];
    const { services, noted } = servicesOf(fake, notes);
    const http = mcpHttpApp(services);
    const transport = new StreamableHTTPClientTransport(new URL("http://harness.test/mcp"), {
      fetch: (url, init) => Promise.resolve(http.app.fetch(new Request(url, init))),
    });
    const client = new Client({ name: "test", version: "1" });
    await client.connect(transport);

    const call = startBench(client);
    await fake.called;
    await transport.terminateSession();
    expect(await call).toMatchObject({
      code: 404,
      message: expect.stringMatching(/Session ended before this request/),
    });

    fake.finishStart("run-1");
    await noted;
    expect(fake.stopAsked).toEqual([["run-1"]]);
    await http.close();
    expect(notes).toEqual([
      "bench run-1 stopped: its MCP client went away; resume it with `pnpm bench --resume run-1`",
    ]);
  });
});
