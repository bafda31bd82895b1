/**
 * The openai provider against the stand-in in real mode (a 4096-token window on /v1), with vLLM's or
 * llama.cpp's tokenizer endpoints and without any: a prompt whose character estimate cannot decide is
 * decided by the server's tokenizer both ways (fits → sent, its count equal to the server's report;
 * does not fit → context_overflow, never sent), and without a tokenizer the call goes out as before and
 * the server's own count flags it.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StandinTokenizer } from "../../../mock-servers/ollama/behaviour.ts";
import { type Standin, startStandin } from "../../../mock-servers/ollama/server.ts";
import { estimateVerdict } from "../../../src/models/context.ts";
import { failureInvalid, PromptTooLongError } from "../../../src/models/errors.ts";
import { OpenAIProvider } from "../../../src/models/openai.ts";
import { promptChars } from "../../../src/models/prompt-text.ts";
import type { ChatMessage } from "../../../src/models/types.ts";
import { EchoModel } from "../../support/echo-model.ts";

const WINDOW = 4096;
/** About 14k characters: 3505 of the stand-in's tokens, but 2805–4673 by the estimate. */
const fits: ChatMessage[] = [{ role: "user", content: `${"a".repeat(13_999)}\nsay it back` }];
/** About 18k characters: 4505 tokens, but 3605–6007 by the estimate. */
const overflows: ChatMessage[] = [{ role: "user", content: `${"b".repeat(17_999)}\nsay it back` }];
/** The stand-in's count of a one-message chat: `user: <content>` at 4 characters a token. */
const tokensOf = (messages: ChatMessage[]) => Math.ceil(`user: ${messages[0]!.content}`.length / 4);

const standins = new Map<StandinTokenizer, Standin>();

beforeAll(async () => {
  for (const tokenizer of ["vllm", "llamacpp", "none"] as const) {
    standins.set(
      tokenizer,
      await startStandin({ provider: new EchoModel(), port: 0, real: true, behaviour: { tokenizer } }),
    );
  }
});

afterAll(async () => {
  await Promise.all([...standins.values()].map((standin) => standin.close()));
});

/** A provider with probes of its own, so each test learns the server afresh. */
function providerFor(
  tokenizer: StandinTokenizer,
  extra: Partial<ConstructorParameters<typeof OpenAIProvider>[0]> = {},
) {
  const standin = standins.get(tokenizer)!;
  standin.resetStats();
  const provider = new OpenAIProvider({
    model: "qwen2.5:3b",
    baseUrl: `${standin.url}/v1`,
    tokenizerProbes: new Map(),
    ...extra,
  });
  return { provider, standin };
}

it("the test's prompts are ones the character estimate cannot decide on a 4096-token window", () => {
  for (const messages of [fits, overflows])
    expect(estimateVerdict(promptChars({ messages }), WINDOW)).toBe("undecided");
  expect(tokensOf(fits)).toBeLessThanOrEqual(WINDOW);
  expect(tokensOf(overflows)).toBeGreaterThan(WINDOW);
});

describe.each(["vllm", "llamacpp"] as const)("a server with %s's tokenizer", (tokenizer) => {
  /** Tokenizer requests per counted chat: vLLM counts in one, llama.cpp applies the template first. */
  const perChat = tokenizer === "vllm" ? 1 : 2;

  it("sends a prompt its tokenizer counts within the window, and the count is what the server reports", async () => {
    const { provider, standin } = providerFor(tokenizer);
    const response = await provider.chat({ stage: "solver", messages: fits });
    expect(response.text).toBe("echo: say it back");
    expect(response.context).toEqual({
      window: WINDOW,
      windowSource: "server",
      estimate: expect.any(Number),
      countSource: "tokenizer",
      counted: tokensOf(fits),
      maxWindow: WINDOW,
    });
    expect(response.usage.promptTokens).toBe(response.context!.counted);
    expect(response.invalid).toBeUndefined();
    // the probe, then the count
    expect(standin.stats()).toMatchObject({ requests: 1, tokenizerRequests: 1 + perChat });
  });

  it("does not send a prompt its tokenizer counts over the window: context_overflow, with the count", async () => {
    const { provider, standin } = providerFor(tokenizer);
    const failure = await provider.chat({ stage: "solver", messages: overflows }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PromptTooLongError);
    expect(failureInvalid(failure)).toBe("context_overflow");
    expect((failure as PromptTooLongError).callContext).toMatchObject({
      countSource: "tokenizer",
      counted: tokensOf(overflows),
    });
    expect((failure as Error).message).toMatch(/4096-token window.*4505 tokens.*not sent/);
    expect(standin.stats()).toMatchObject({ requests: 0, tokenizerRequests: 1 + perChat });
  });

  it("counts a completion's prompt too, and asks nothing when the estimate decides", async () => {
    const { provider, standin } = providerFor(tokenizer);
    const short = await provider.complete({ stage: "solver", prompt: "Reply with OK." });
    expect(short.context).toMatchObject({ countSource: "estimate" });
    expect(short.context).not.toHaveProperty("uncounted");
    expect(short.context).not.toHaveProperty("counted");
    expect(standin.stats().tokenizerRequests).toBe(0);

    const long = await provider.complete({ stage: "solver", prompt: `${"c".repeat(14_000)}\nsay it back` });
    expect(long.context).toMatchObject({ countSource: "tokenizer", counted: long.usage.promptTokens });
    // a completion is one /tokenize in either flavour: no template to apply
    expect(standin.stats().tokenizerRequests).toBe(2);
  });

  it("never asks with `tokenizer: off`", async () => {
    const { provider, standin } = providerFor(tokenizer, { tokenizer: "off" });
    const response = await provider.chat({ stage: "solver", messages: fits });
    expect(response.context).toMatchObject({ countSource: "estimate" });
    expect(response.context).not.toHaveProperty("uncounted");
    expect(standin.stats().tokenizerRequests).toBe(0);
  });
});

describe("a server without a tokenizer (Ollama's /v1)", () => {
  it("sends both prompts as before: the server's own count flags the one it cut, and the 404 is asked once", async () => {
    const { provider, standin } = providerFor("none");
    const fitted = await provider.chat({ stage: "solver", messages: fits });
    // the estimate could not decide, and the record says why no tokenizer settled it
    expect(fitted.context).toMatchObject({
      countSource: "estimate",
      window: WINDOW,
      uncounted: expect.stringMatching(/^no tokenizer at http:\/\/127\.0\.0\.1:\d+ \(\/tokenize answered 404\)$/),
    });
    expect(fitted.usage.promptTokens).toBe(tokensOf(fits));
    expect(fitted.invalid).toBeUndefined();

    const cut = await provider.chat({ stage: "solver", messages: overflows });
    expect(cut.context).toMatchObject({ countSource: "estimate" });
    expect(cut.usage.promptTokens).toBe(WINDOW);
    expect(cut.invalid).toBe("context_overflow");

    await provider.chat({ stage: "solver", messages: fits });
    expect(standin.stats()).toMatchObject({ requests: 3, tokenizerRequests: 1 });
  });
});
