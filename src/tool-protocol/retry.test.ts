import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { classifyError, RETRY_DELAYS_MS, RETRY_TABLE, TOOL_ERROR_CODES } from "./retry.ts";

describe("retry table", () => {
  it("waits 100, 400 and 1600 ms between attempts", () => {
    expect(RETRY_DELAYS_MS).toEqual([100, 400, 1600]);
  });

  it.each([
    [new McpError(ErrorCode.InternalError, "boom"), "transient", true, false],
    [new McpError(ErrorCode.RequestTimeout, "Request timed out"), "timeout", false, true],
    [new McpError(TOOL_ERROR_CODES.timeLimit, "ran past its time limit"), "timeout", false, false],
    [new McpError(TOOL_ERROR_CODES.memoryLimit, "ran out of its memory limit"), "permanent", false, false],
    [
      new McpError(TOOL_ERROR_CODES.deterministicFailure, "RangeError: Maximum call stack size"),
      "permanent",
      false,
      false,
    ],
    [new McpError(ErrorCode.ConnectionClosed, "Connection closed"), "transient", true, true],
    [new Error("Not connected"), "transient", true, true],
    [new McpError(-32002, "gone"), "permanent", false, false],
    [new McpError(ErrorCode.InvalidParams, "missing required parameter: owner"), "invalid_params", false, false],
    [new McpError(ErrorCode.InvalidParams, "Unknown tool: x"), "unknown_tool", false, false],
    [new Error("something else"), "permanent", false, false],
  ])("%s → %s (retry %s, restart %s)", (error, kind, retry, restart) => {
    expect(classifyError(error)).toMatchObject({ kind, retry, restart });
  });

  it("says why for every rule", () => {
    for (const rule of RETRY_TABLE) expect(rule.reason.length).toBeGreaterThan(20);
    expect(classifyError(new McpError(TOOL_ERROR_CODES.deterministicFailure, "x")).reason).toMatch(/same way/);
  });

  it("never retries a call the caller aborted", () => {
    const controller = new AbortController();
    controller.abort();
    expect(classifyError(new McpError(ErrorCode.InternalError, "x"), controller.signal)).toMatchObject({
      kind: "aborted",
      retry: false,
    });
  });
});
