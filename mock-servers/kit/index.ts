export { seededRandom } from "../../src/random.ts";
export { JSONRPC_PERMANENT_ERROR, ToolError } from "./errors.ts";
export { connectInMemory, type InMemoryConnection } from "./memory.ts";
export { CONTROL_TOOLS, createMockServer, type MockServer, type MockServerOptions } from "./server.ts";
export { FAULTS_ENV, runStdio } from "./stdio.ts";
export * from "./types.ts";
