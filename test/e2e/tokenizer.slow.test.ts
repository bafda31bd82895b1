/**
 * `pnpm bench --model openai:qwen2.5:3b --matrix default --limit 60` through the real CLI against the
 * stand-in in real mode with vLLM's tokenizer endpoint (a 4096-token window on /v1): the records say for
 * every call where its pre-send count came from; a call the tokenizer counted within the window was sent
 * and the server reported exactly that count; one it counted over the window was never sent and is
 * context_overflow; and the tokenizer was asked once per such call, plus one probe — no other request.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Standin, startStandin } from "../../mock-servers/ollama/server.ts";
import { loadDataset } from "../../src/bench/dataset/load.ts";
import { createSimProvider } from "../../src/models/sim/index.ts";
import { runCli, strictRecordLines } from "../support/bench-run.ts";

const root = mkdtempSync(join(tmpdir(), "onsetlab-tokenizer-"));
let standin: Standin;

beforeAll(async () => {
  const gold = loadDataset([]).map((loaded) => loaded.item);
  standin = await startStandin({
    provider: createSimProvider({ profile: "slm-3b", gold }),
    port: 0,
    real: true,
    behaviour: { tokenizer: "vllm" },
  });
});

afterAll(async () => {
  await standin.close();
  rmSync(root, { recursive: true, force: true });
});

it("records each call's count source; the tokenizer decides the calls the estimate cannot, both ways", async () => {
  const outcome = await runCli(
    ["bench", "--model", "openai:qwen2.5:3b", "--matrix", "default", "--limit", "60", "--allow-invalid", "--no-cache"],
    { OPENAI_BASE_URL: `${standin.url}/v1`, ONSETLAB_RESULTS_DIR: root },
  );
  expect(outcome.code, outcome.stderr).toBe(0);
  const id = /run (\S+): \d+ records/.exec(outcome.stderr)?.[1];
  const calls = strictRecordLines(join(root, id!)).flatMap((record) => record.result.modelCalls);

  for (const call of calls) expect(call.context?.countSource, `call ${call.seq}`).toMatch(/^(estimate|tokenizer)$/);
  const counted = calls.filter((call) => call.context?.countSource === "tokenizer");
  const sent = counted.filter((call) => call.usage);
  const refused = counted.filter((call) => !call.usage);
  expect(sent.length).toBeGreaterThan(0);
  expect(refused.length).toBeGreaterThan(0);
  for (const call of sent) {
    expect(call.usage!.promptTokens).toBe(call.context!.counted);
    expect(call.context!.counted).toBeLessThanOrEqual(call.context!.window!);
    expect(call.invalid).toBeUndefined();
  }
  for (const call of refused) {
    expect(call.context!.counted).toBeGreaterThan(call.context!.window!);
    expect(call.invalid).toBe("context_overflow");
    expect(call.error).toMatch(/not sent/);
  }
  // one probe, then one /tokenize per call the estimate could not decide
  expect(standin.stats().tokenizerRequests).toBe(1 + counted.length);
});
