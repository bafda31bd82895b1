export { BoundedCache } from "../../src/memo.ts";
export { seededRandom } from "../../src/random.ts";
export { JSONRPC_PERMANENT_ERROR, PristineStateError, TOOL_ERROR_CODES, ToolError } from "./errors.ts";
export { connectInMemory, type InMemoryConnection } from "./memory.ts";
export { deepFreeze, pristineState } from "./pristine.ts";
export { CONTROL_TOOLS, createMockServer, type MockServer, type MockServerOptions } from "./server.ts";
export { runStdio } from "./stdio.ts";
export * from "./types.ts";
