import { resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ServerConnectError } from "./errors.ts";
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
  const env: Record<string, string> = { ...getDefaultEnvironment() };
  const declared = Array.isArray(entry.env)
    ? entry.env.map((name) => [name, null] as const)
    : Object.entries(entry.env ?? {});
  for (const [name, given] of declared) {
    const value = given ?? process.env[name];
    if (value !== undefined) env[name] = value;
  }
  const command = entry.command === "node" ? process.execPath : (entry.command as string);
  const transport = new StdioClientTransport({
    command,
    args: entry.args ?? [],
    env,
    cwd: resolve(options.baseDir, entry.cwd ?? "."),
    stderr: "pipe",
  });
  const stderrTail: string[] = [];
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderrTail.push(chunk.toString());
    if (stderrTail.length > 20) stderrTail.shift();
  });
  const client = new Client(CLIENT_INFO);
  try {
    await client.connect(transport, { timeout: options.timeoutMs ?? 15_000 });
  } catch (cause) {
    await transport.close().catch(() => undefined);
    const said = stderrTail.join("").trim().split("\n").slice(-3).join(" | ");
    throw new ServerConnectError(
      "SERVER_CONNECT_FAILED",
      `server "${entry.name}" did not start: ${command} ${(entry.args ?? []).join(" ")} — ${(cause as Error).message}` +
        (said ? ` (stderr: ${said})` : "") +
        (entry.mock ? " — run `pnpm build` if dist/mock-servers is missing" : ""),
      { cause, context: { server: entry.name } },
    );
  }
  return { entry, transport: "stdio", client, pid: transport.pid, close: () => client.close() };
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
