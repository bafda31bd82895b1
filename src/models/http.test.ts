import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { ModelAbortedError, ModelTimeoutError, ProviderUnreachableError } from "./errors.ts";
import { guardedCall, isLoopbackHost, networkFailure, readLines } from "./http.ts";

const target = { endpoint: "Test at http://127.0.0.1:1", unreachableHint: "start the test server" };

/** A call that only ends when its signal fires. */
const never = (signal: AbortSignal) =>
  new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)));

/** A port that was free a moment ago: nothing listens there. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("guardedCall", () => {
  it("passes the answer through", async () => {
    await expect(guardedCall(target, { timeoutMs: 1000 }, async () => 42)).resolves.toBe(42);
  });

  it("turns its own time limit into ModelTimeoutError naming the endpoint and the limit", async () => {
    const failure = await guardedCall(target, { timeoutMs: 30 }, never).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelTimeoutError);
    expect((failure as Error).message).toBe("no answer from Test at http://127.0.0.1:1 within 30 ms");
  });

  it("turns the caller's abort into ModelAbortedError, also when it fired before the call", async () => {
    const controller = new AbortController();
    const pending = guardedCall(target, { signal: controller.signal, timeoutMs: 5000 }, never);
    controller.abort(new Error("user pressed stop"));
    await expect(pending).rejects.toThrow(ModelAbortedError);
    await expect(guardedCall(target, { signal: controller.signal, timeoutMs: 5000 }, async () => 1)).rejects.toThrow(
      /aborted by the caller: user pressed stop/,
    );
  });

  it("turns a refused connection into ProviderUnreachableError with the hint", async () => {
    const port = await closedPort();
    const failure = await guardedCall(target, { timeoutMs: 5000 }, () => fetch(`http://127.0.0.1:${port}/`)).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ProviderUnreachableError);
    expect((failure as Error).message).toMatch(
      /cannot reach Test at .* \(ECONNREFUSED: connection refused\): start the test server/,
    );
    expect(networkFailure((failure as Error).cause)).toBe("ECONNREFUSED");
  });

  it("lets any other failure through unchanged", async () => {
    const own = new RangeError("bad value");
    await expect(guardedCall(target, { timeoutMs: 1000 }, async () => Promise.reject(own))).rejects.toBe(own);
  });
});

describe("isLoopbackHost", () => {
  it.each([
    ["localhost", true],
    ["127.0.0.1", true],
    ["127.8.9.10", true],
    ["[::1]", true],
    ["::ffff:127.0.0.1", true],
    ["api.openai.com", false],
    ["10.0.0.5", false],
    ["0.0.0.0", false],
    ["127.example.com", false],
  ])("%s → %s", (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});

describe("readLines", () => {
  it("splits a stream into lines across chunk borders, CRLF included, keeping a last unterminated line", async () => {
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const piece of ['{"a":', '1}\r\n{"b"', ":2}\n\n", "tail"]) controller.enqueue(encoder.encode(piece));
        controller.close();
      },
    });
    const lines: string[] = [];
    for await (const line of readLines(body)) lines.push(line);
    expect(lines).toEqual(['{"a":1}', '{"b":2}', "", "tail"]);
  });
});
