/**
 * Writes answers into the request cache at `argv[2]` without end, printing the count after each; the
 * kill test (test/e2e/request-cache.slow.test.ts) kills it with SIGKILL mid-write and reads what it left.
 */
import { RequestCache } from "../../src/models/request-cache.ts";

const cache = new RequestCache(process.argv[2]!);
for (let index = 0; ; index += 1) {
  await cache.answer("writer", `hash-${index}`, async () => ({
    model: "writer",
    response: {
      text: `answer ${index} ${"x".repeat(2000)}`,
      usage: { promptTokens: index, completionTokens: 1 },
      timings: { totalMs: index },
    },
    durationMs: index,
    storedAt: new Date().toISOString(),
  }));
  process.stdout.write(`${index + 1}\n`);
}
