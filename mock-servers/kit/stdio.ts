import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { FAULTS_ENV, parseFaults } from "../../src/tool-protocol/faults.ts";
import { createMockServer } from "./server.ts";
import type { FaultConfig, ServerSpec } from "./types.ts";

/** Entry point of a mock server process: serve over stdio, log to stderr only, exit when stdin ends. */
export async function runStdio<S>(spec: ServerSpec<S>): Promise<void> {
  const faults = readFaults();
  const { server } = createMockServer(spec, { faults, onCrash: () => process.exit(70) });
  const transport = new StdioServerTransport();
  process.stdin.on("end", () => process.exit(0));
  await server.connect(transport);
}

function readFaults(): FaultConfig {
  const raw = process.env[FAULTS_ENV];
  if (!raw) return {};
  try {
    return parseFaults(raw, FAULTS_ENV);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}; running without faults\n`);
    return {};
  }
}
