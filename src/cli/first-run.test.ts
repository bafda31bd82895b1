/**
 * What a new user reads from the CLI after the main jobs (issue 32, item 8): where the run went and what
 * next, the stand-in's own dataset, a taken port, how to run an export, an ETA not misled by the start.
 */
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { startStandin } from "../../mock-servers/ollama/server.ts";
import { groundedAnswer } from "../models/sim/answer.ts";
import { createSimProvider } from "../models/sim/index.ts";
import { benchEndLines } from "./bench-end.ts";
import { runHint } from "./export.ts";
import { TaskPace } from "./progress.ts";
import { defaultReportFolder } from "./report.ts";
import { portTaken } from "./standin.ts";

describe("after the bench's table", () => {
  const standin = { kind: "stand-in" as const, profile: "sim:slm-3b" };
  const end = {
    runId: "2026-11-26-abc",
    dir: "/w/results/2026-11-26-abc",
    records: 40,
    before: [],
    provenance: [{ kind: "live" as const }],
  };

  it("says where the run went and what to do next with it", () => {
    expect(benchEndLines(end, "/w")).toEqual([
      "run 2026-11-26-abc: 40 records → results/2026-11-26-abc/",
      "next: pnpm report 2026-11-26-abc (report beside the run) · pnpm run view (browse its items)",
    ]);
  });

  it("a stand-in run says the stand-in answers only its own dataset, and how to give it yours", () => {
    expect(benchEndLines({ ...end, provenance: [standin] }, "/w")[1]).toBe(
      "the stand-in answers only the items of the dataset it was started with; for yours: pnpm standin --dataset FILE",
    );
    expect(benchEndLines({ ...end, provenance: [standin] }, "/w").every((line) => line.length <= 120)).toBe(true);
  });

  it("a run whose user a model played says so, after where it went", () => {
    expect(benchEndLines({ ...end, userModel: "qwen2.5:7b" }, "/w")[1]).toBe(
      "the user was played by qwen2.5:7b (not the scripted user: its answers are on the turns)",
    );
  });

  it("the simulator's answer to a query outside its dataset says why, and names pnpm standin --dataset FILE", () => {
    expect(groundedAnswer(undefined, "")).toMatch(/not an item of the dataset .*pnpm standin --dataset FILE/);
  });

  it("a user's report goes beside its run, not into the tracked reports/", () => {
    expect(defaultReportFolder([{ dir: "/w/results/r1" }])).toBe("/w/results/r1/report");
    expect(defaultReportFolder([{ dir: "/w/results/r1" }, { dir: "/w/results/r2" }])).toBe("/w/results/r1/report+1");
  });
});

describe("pnpm standin on a port that is taken", () => {
  it("says so in one line naming --port and OLLAMA_HOST, not a raw EADDRINUSE", async () => {
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, "127.0.0.1", done));
    const port = (taken.address() as { port: number }).port;
    try {
      const error = await startStandin({ provider: createSimProvider({ profile: "oracle", gold: [] }), port }).catch(
        (thrown: unknown) => thrown,
      );
      expect(portTaken(error, port)?.message).toBe(
        `port ${port} is taken (Ollama itself, or another stand-in?): start the stand-in on another with --port N, ` +
          "and point the bench at it with OLLAMA_HOST=http://127.0.0.1:N",
      );
      expect(portTaken(new Error("other"), port)).toBeUndefined();
    } finally {
      taken.close();
    }
  });
});

describe("pnpm export's last line", () => {
  it("says how to run what it wrote, per format", () => {
    expect(runHint("config", "/a", ["agent.yaml"])).toBe('pnpm agent --agent-file /a/agent.yaml "your query"');
    expect(runHint("config", "/a", ["agent.json"])).toBe('pnpm agent --agent-file /a/agent.json "your query"');
    expect(runHint("script", "/a", ["agent.mjs", "agent.yaml"])).toBe('node /a/agent.mjs "your query" (or --serve)');
    expect(runHint("docker", "/a", [])).toMatch(/^cd \/a && docker compose up/);
  });
});

describe("the progress ETA", () => {
  it("is measured from the first finished task on: a slow start is not read as every task's time", () => {
    let now = 0;
    const pace = new TaskPace(() => now);
    now = 5_000; // servers starting: the first task finishes after 5 s
    pace.update(1);
    expect(pace.secondsLeft(200)).toBeUndefined();
    now = 6_000; // then 10 tasks a second
    pace.update(11);
    expect(pace.secondsLeft(200)).toBeCloseTo(18.9, 5);
    pace.update(11);
    expect(pace.secondsLeft(11)).toBe(0);
  });
});
