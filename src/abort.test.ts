import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { startDeadline } from "./abort.ts";

describe("startDeadline", () => {
  it("fires with a TimeoutError when the limit passes, and says it expired", async () => {
    const deadline = startDeadline(5);
    await sleep(30);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.expired).toBe(true);
    expect((deadline.signal.reason as DOMException).name).toBe("TimeoutError");
  });

  it("fires with the parent's reason when the parent aborts first", () => {
    const parent = new AbortController();
    const deadline = startDeadline(10_000, parent.signal);
    parent.abort(new Error("stop"));
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.expired).toBe(false);
    expect((deadline.signal.reason as Error).message).toBe("stop");
    deadline.dispose();
  });

  it("starts aborted under an aborted parent", () => {
    const parent = new AbortController();
    parent.abort("gone");
    expect(startDeadline(10_000, parent.signal).signal.reason).toBe("gone");
  });

  it("once disposed, neither the timer nor the parent reaches it", async () => {
    const parent = new AbortController();
    const deadline = startDeadline(5, parent.signal);
    deadline.dispose();
    await sleep(30);
    parent.abort();
    expect(deadline.signal.aborted).toBe(false);
    expect(deadline.expired).toBe(false);
  });
});
