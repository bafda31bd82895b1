/**
 * Bad input to the `bench` CLI (run in process: the program bin.ts runs, the same exit codes): exit code
 * 2 and one line on stderr naming the flag or file; an unreachable Ollama: exit code 1 and one line
 * telling how to start it. None of them leaves a run folder behind.
 */

import { once } from "node:events";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { runInProcess } from "../support/cli-in-process.ts";
import { useTempResults } from "../support/temp-results.ts";

// the results folder of this test (read when a run is written, not at import)
const { root, results } = useTempResults("onsetlab-bad-input-");
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A port nothing listens on: bound once by us, then released. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, "close");
  return port;
}

describe("bench on bad input", () => {
  it("exits 2 with one line naming the flag or file, or 1 with how to start an unreachable Ollama", async () => {
    const badDataset = join(root, "broken.jsonl");
    writeFileSync(badDataset, '{"id": "x-001", "query": "List the open issues"}\nnot json\n');
    const port = await closedPort();
    const base = ["bench", "--limit", "2"];
    const cases: { args: string[]; env?: Record<string, string>; code: number; line: RegExp }[] = [
      {
        args: ["--model", "sim:oracle", "--config", "nope"],
        code: 2,
        line: /--config "nope" is not a configuration in .*models\.yaml; expected one of: onsetlab/,
      },
      {
        args: ["--model", "sim:nope", "--config", "onsetlab"],
        code: 2,
        line: /unknown simulator profile "nope"; known: sim:oracle/,
      },
      {
        args: ["--model", "sim:oracle", "--matrix", "nope"],
        code: 2,
        line: /--matrix "nope" is not a matrix in .*models\.yaml/,
      },
      {
        args: ["--model", "sim:oracle", "--filter", "colour=red"],
        code: 2,
        line: /--filter: "colour=red" is not key=value with key one of category/,
      },
      {
        args: ["--model", "sim:oracle", "--dataset", join(root, "missing.jsonl")],
        code: 2,
        line: /missing\.jsonl: no such file or folder/,
      },
      {
        args: ["--model", "sim:oracle", "--dataset", badDataset],
        code: 2,
        line: /broken\.jsonl:1 \(x-001\): .*broken\.jsonl:2: not valid JSON/,
      },
      {
        args: ["--model", "sim:oracle", "--shard", "3/2"],
        code: 2,
        line: /--shard must be i\/n with 1 ≤ i ≤ n \(e\.g\. 2\/4\), not "3\/2"/,
      },
      { args: ["--model", "sim:oracle", "--seed", "-1"], code: 2, line: /--seed must be a whole number ≥ 0, not "-1"/ },
      {
        args: ["--model", "sim:oracle", "--config", "onsetlab", "--first", "2"],
        code: 2,
        line: /--limit N \(a sample over the categories\) and --first N \(file order\): one or the other/,
      },
      {
        args: ["--model", "sim:oracle", "--config", "onsetlab,react", "--until-significant", "onsetlab"],
        code: 2,
        line: /--until-significant takes two configurations, A,B, not "onsetlab"/,
      },
      {
        args: ["--model", "sim:oracle", "--config", "onsetlab", "--margin", "0.05"],
        code: 2,
        line: /--margin goes with --until-significant A,B/,
      },
      {
        args: [
          "--model",
          "sim:oracle",
          "--config",
          "onsetlab,react",
          "--until-significant",
          "onsetlab,react",
          "--alpha",
          "5",
        ],
        code: 2,
        line: /--alpha must be a number between 0 and 1 \(e\.g\. 0\.05\), not "5"/,
      },
      {
        args: ["--model", "qwen2.5:3b", "--config", "onsetlab", "--threads", "2"],
        code: 2,
        line: /--threads above 1 runs the simulator only, without --record\/--replay/,
      },
      {
        args: ["--model", "qwen2.5:3b", "--config", "onsetlab"],
        env: { OLLAMA_HOST: `http://127.0.0.1:${port}` },
        code: 1,
        line: new RegExp(
          `model ollama:qwen2\\.5:3b: cannot reach Ollama at http://127\\.0\\.0\\.1:${port} \\(ECONNREFUSED: connection refused\\): start it with \`ollama serve\`, or point OLLAMA_HOST`,
        ),
      },
    ];
    // one at a time: the in-process runs share stdout/stderr and the environment
    const outcomes = [];
    for (const { args, env } of cases) {
      vi.stubEnv("OLLAMA_HOST", env?.OLLAMA_HOST);
      outcomes.push(await runInProcess([...base, ...args]));
    }
    vi.unstubAllEnvs();
    outcomes.forEach((outcome, index) => {
      const { args, code, line } = cases[index]!;
      const context = `bench ${args.join(" ")}: ${outcome.stderr}`;
      expect(outcome.code, context).toBe(code);
      expect(outcome.stdout, context).toBe("");
      const lines = outcome.stderr.trimEnd().split("\n");
      expect(lines, context).toHaveLength(1);
      expect(lines[0], context).toMatch(/^error: /);
      expect(lines[0], context).toMatch(line);
    });
    // no partial garbage: not one run folder was left
    expect(readdirSafe(results)).toEqual([]);
  }, 120_000);
});

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
