import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ServerConnectError } from "./errors.ts";
import { commandLine, indent, type Launch, redact, StderrTail, stdioLaunch } from "./launch.ts";
import type { RegistryEntry } from "./registry.ts";

/** Anything with the SDK server's `connect`/`close` (Server or McpServer). */
export interface InProcessServer {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

/** Builds a fresh in-process server; `onCrash` is what a crash fault does (close the link). */
export type InProcessFactory = (hooks: { onCrash: () => void }) => InProcessServer;

export type TransportKind = "stdio" | "memory";

export interface ServerConnection {
  entry: RegistryEntry;
  transport: TransportKind | "http";
  client: Client;
  /** Child process id for stdio servers (to kill on a hard exit). */
  pid: number | null;
  close(): Promise<void>;
}

export interface ConnectOptions {
  transport: TransportKind;
  baseDir: string;
  inProcess?: InProcessFactory;
  /** A `fixture` server's fresh copy of its folder (fills `{fixture}`, its default cwd). */
  fixture?: string;
  timeoutMs?: number;
}

const CLIENT_INFO = { name: "onsetlab-bench", version: "0.1.0" };

/** Connects one server: in-process when asked and a factory exists, otherwise by its registry transport. */
export async function openConnection(entry: RegistryEntry, options: ConnectOptions): Promise<ServerConnection> {
  if (options.transport === "memory" && options.inProcess) return openInMemory(entry, options.inProcess);
  if (entry.transport === "http") return openHttp(entry, options);
  return openStdio(entry, options);
}

async function openInMemory(entry: RegistryEntry, factory: InProcessFactory): Promise<ServerConnection> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = factory({ onCrash: () => void serverSide.close() });
  const client = new Client(CLIENT_INFO);
  await server.connect(serverSide);
  await client.connect(clientSide);
  return {
    entry,
    transport: "memory",
    client,
    pid: null,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

async function openStdio(entry: RegistryEntry, options: ConnectOptions): Promise<ServerConnection> {
  const launch = stdioLaunch(entry, options.baseDir, options.fixture);
  const transport = new StdioClientTransport({ ...launch, stderr: "pipe" });
  const stderr = new StderrTail();
  const stderrDone = new Promise<void>((done) => {
    transport.stderr?.on("data", (chunk: Buffer) => stderr.append(chunk.toString()));
    transport.stderr?.on("end", done);
    transport.stderr?.on("close", done);
  });
  // a line on stdout that is not JSON-RPC: the handshake would only wait for its time limit
  let garbage: (error: Error) => void = () => undefined;
  const garbled = new Promise<never>((_, fail) => {
    garbage = fail;
  });
  let starting = true;
  transport.onerror = (error) => {
    if (starting) garbage(error);
  };
  const client = new Client(CLIENT_INFO);
  const timeoutMs = options.timeoutMs ?? 15_000;
  try {
    await Promise.race([client.connect(transport, { timeout: timeoutMs }), garbled]);
  } catch (cause) {
    await transport.close().catch(() => undefined);
    // what the server wrote just before it exited arrives after the close
    await Promise.race([stderrDone, new Promise((done) => setTimeout(done, 300))]);
    throw new ServerConnectError("SERVER_CONNECT_FAILED", startFailure(entry, launch, cause, timeoutMs, stderr), {
      cause,
      context: { server: entry.name },
    });
  }
  starting = false;
  return { entry, transport: "stdio", client, pid: transport.pid, close: () => client.close() };
}

/** One line saying what failed and how to look into it, then the server's own last stderr lines. */
function startFailure(
  entry: RegistryEntry,
  launch: Launch,
  cause: unknown,
  timeoutMs: number,
  stderr: StderrTail,
): string {
  const message = (cause as Error).message;
  const why = /timed out|timeout/i.test(message)
    ? `no answer to the MCP handshake within ${timeoutMs / 1000} s`
    : /JSON|Unexpected token|parse/i.test(message)
      ? `it printed something that is not JSON-RPC on stdout (${message.split("\n")[0]}); a stdio server may write logs to stderr only`
      : /closed/i.test(message)
        ? "it exited before the MCP handshake"
        : message.split("\n")[0];
  const said = stderr.lines(launch.secrets);
  return (
    `server "${entry.name}" did not start: ${why}; command: ${redact(commandLine(entry, launch), launch.secrets)}` +
    (entry.mock ? " (run `pnpm build` if dist/mock-servers is missing)" : "") +
    (said
      ? `\n  its stderr (last ${said.split("\n").length} lines):\n${indent(said)}`
      : " (it wrote nothing to stderr)")
  );
}

async function openHttp(entry: RegistryEntry, options: ConnectOptions): Promise<ServerConnection> {
  const client = new Client(CLIENT_INFO);
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(entry.url as string)), {
      timeout: options.timeoutMs ?? 15_000,
    });
  } catch (cause) {
    throw new ServerConnectError(
      "SERVER_CONNECT_FAILED",
      `server "${entry.name}" at ${entry.url} is not reachable: ${(cause as Error).message}`,
      { cause, context: { server: entry.name } },
    );
  }
  return { entry, transport: "http", client, pid: null, close: () => client.close() };
}
