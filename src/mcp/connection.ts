import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { RemoteServerError, ServerConnectError } from "./errors.ts";
import { commandLine, indent, type Launch, redact, StderrTail, stdioLaunch } from "./launch.ts";
import type { RegistryEntry } from "./registry.ts";
import { HEADER_VARIABLE, isRemote } from "./registry-entry.ts";

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
  transport: TransportKind | "http" | "sse";
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
  if (isRemote(entry)) return openRemote(entry, options);
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

/**
 * A remote server, over Streamable HTTP or the legacy SSE transport, with its headers filled from the
 * environment. A variable a header names that is unset is bad input; a server that does not answer in
 * time, or refuses the connection, is a run error naming it (nothing of the user's input is wrong).
 */
async function openRemote(entry: RegistryEntry, options: ConnectOptions): Promise<ServerConnection> {
  const headers = remoteHeaders(entry);
  const url = new URL(entry.url as string);
  const requestInit = { headers };
  const transport =
    entry.transport === "sse"
      ? new SSEClientTransport(url, { requestInit })
      : new StreamableHTTPClientTransport(url, { requestInit });
  const client = new Client(CLIENT_INFO);
  const timeoutMs = options.timeoutMs ?? 15_000;
  try {
    await withTimeout(client.connect(transport, { timeout: timeoutMs }), timeoutMs);
  } catch (cause) {
    await transport.close().catch(() => undefined);
    const secrets = Object.values(headers);
    const why =
      cause instanceof RemoteTimeout
        ? `no answer to the MCP handshake within ${timeoutMs / 1000} s`
        : (cause as Error).message.split("\n")[0];
    throw new RemoteServerError(
      "REMOTE_SERVER_UNREACHABLE",
      `server "${entry.name}" (${entry.transport}) at ${entry.url} did not connect: ${redact(why ?? "", secrets)}`,
      { cause, context: { server: entry.name } },
    );
  }
  return {
    entry,
    transport: entry.transport === "sse" ? "sse" : "http",
    client,
    pid: null,
    close: () => client.close(),
  };
}

/** The entry's headers with each `${NAME}` replaced by that variable's value; an unset one is bad input. */
function remoteHeaders(entry: RegistryEntry): Record<string, string> {
  return Object.fromEntries(
    Object.entries(entry.headers ?? {}).map(([name, template]) => [
      name,
      template.replace(HEADER_VARIABLE, (_, variable: string) => {
        const value = process.env[variable];
        if (value === undefined || value === "") {
          throw new ServerConnectError(
            "HEADER_VARIABLE_UNSET",
            `server "${entry.name}": header ${name} names \${${variable}}, which is not set in the environment`,
            { context: { server: entry.name, header: name, variable } },
          );
        }
        return value;
      }),
    ]),
  );
}

class RemoteTimeout extends Error {}

/**
 * The SDK's handshake timeout covers the initialize request only; an SSE server that never opens its
 * stream leaves `connect` waiting on the stream itself, so the whole connect has the same limit.
 */
async function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new RemoteTimeout()), timeoutMs);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
