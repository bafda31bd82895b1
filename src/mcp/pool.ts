import { type CallToolResult, CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { FaultConfig } from "../tool-protocol/faults.ts";
import { classifyError, RETRY_DELAYS_MS } from "../tool-protocol/retry.ts";
import type { CallOptions, ToolAttempt, ToolCallResult, ToolDefinition, ToolHost } from "../tool-protocol/types.ts";
import { type InProcessFactory, openConnection, type ServerConnection, type TransportKind } from "./connection.ts";
import { ServerResetError, ToolNameConflictError, UnknownServerError } from "./errors.ts";
import { copyFixture, removeFixture, runResetCommand } from "./launch.ts";
import { CONTROL_TOOL_PREFIX, MockControl } from "./mock-control.ts";
import { OutputValidator } from "./output-validation.ts";
import type { Registry, RegistryEntry, ResetKind } from "./registry.ts";
import { entryBaseDir, resetKind } from "./registry-entry.ts";

export interface PoolOptions {
  transport: TransportKind;
  /** Only these servers (default: all in the registry). */
  servers?: string[];
  /** In-process factories by server name, used when transport is "memory" (a server of the caller's own). */
  inProcess?: Record<string, InProcessFactory>;
  /**
   * The project's mock servers by name, used in-process (transport "memory") only for entries marked
   * `mock: true`: a user's server that happens to share a mock's name is never swapped for it.
   */
  mocks?: Record<string, InProcessFactory>;
  retryDelaysMs?: readonly number[];
  /** Per-attempt time limit of a tool call (default 30 s). */
  callTimeoutMs?: number;
  /** Fault injection on every mock server, set at connect and again after every restart (`--faults`). */
  faults?: FaultConfig;
}

interface LiveServer {
  entry: RegistryEntry;
  connection: ServerConnection;
  restarts: number;
  /** A `fixture` server's copy of its folder, removed when the server stops. */
  fixture?: string;
}

/** The resets run before a task, by server: the servers not named were still clean. */
export type ResetsRun = Record<string, ResetKind | "mock">;

const livePools = new Set<ClientPool>();

/**
 * Connects every server of a registry once per run, lists their tools (hiding `__` control tools),
 * and makes tool calls with output validation, the retry table and crash restarts. Implements ToolHost.
 * The mocks' control tools are reached through `control` (mock-control.ts).
 */
export class ClientPool implements ToolHost {
  private readonly servers = new Map<string, LiveServer>();
  /** The mock servers' reset, state, checks and faults. */
  readonly control = new MockControl((name) => {
    const live = this.servers.get(name);
    return live && { entry: live.entry, client: live.connection.client };
  });
  private readonly toolIndex = new Map<string, ToolDefinition>();
  /** listTools' array, made again after the index changes. */
  private listed: readonly ToolDefinition[] | undefined;
  private readonly validator = new OutputValidator();
  /**
   * Servers that may have changed since their last reset, so need one before the next query: a mock after
   * a write call (a tool not annotated read-only; a test holds the mocks' hints to the truth), any other
   * server after any call (its hints are its author's word, and a fresh start costs little).
   */
  private readonly touched = new Set<string>();
  private closed = false;

  private constructor(
    private readonly registry: Registry,
    private readonly options: PoolOptions,
  ) {}

  static async open(registry: Registry, options: PoolOptions): Promise<ClientPool> {
    const pool = new ClientPool(registry, options);
    livePools.add(pool);
    installExitHooks();
    const wanted = options.servers ?? registry.servers.map((entry) => entry.name);
    const entries = wanted.map((name) => {
      const entry = registry.servers.find((candidate) => candidate.name === name);
      if (!entry) {
        const known = registry.servers.map((candidate) => candidate.name).join(", ");
        throw new UnknownServerError("UNKNOWN_SERVER", `${registry.file}: no server named "${name}" (known: ${known})`);
      }
      return entry;
    });
    try {
      // a `command` server starts from its reset state, as every later task does
      for (const entry of entries) {
        if (resetKind(entry) === "command") await runResetCommand(entry, entryBaseDir(registry, entry.name));
      }
      const live = await Promise.all(entries.map((entry) => pool.connect(entry)));
      for (const server of live) pool.servers.set(server.entry.name, server);
      for (const server of live) await pool.indexTools(server);
      await Promise.all(live.map((server) => pool.applyFaults(server)));
    } catch (error) {
      await pool.close();
      throw error;
    }
    return pool;
  }

  listTools(): readonly ToolDefinition[] {
    this.listed ??= Object.freeze([...this.toolIndex.values()]);
    return this.listed;
  }

  serverNames(): string[] {
    return [...this.servers.keys()];
  }

  /**
   * What a server is for: its registry `purpose`, or else the first sentence of the `instructions` it
   * sent at the handshake, or else the name and version it gave (`serverInfo`).
   */
  purposeOf(server: string): { purpose: string; from: "registry" | "instructions" | "serverInfo" } {
    const live = this.servers.get(server);
    if (!live) throw new UnknownServerError("UNKNOWN_SERVER", `no connected server named "${server}"`);
    if (live.entry.purpose) return { purpose: live.entry.purpose, from: "registry" };
    const instructions = live.connection.client.getInstructions()?.trim();
    if (instructions) {
      // the first sentence, a Markdown heading's marks dropped
      const first = instructions
        .replace(/^#+\s*/, "")
        .split(/(?<=[.!?])\s|\n/)[0]!
        .trim();
      return { purpose: first, from: "instructions" };
    }
    const info = live.connection.client.getServerVersion();
    const title = info?.title ?? info?.name ?? server;
    return { purpose: info?.version ? `${title} ${info.version}` : title, from: "serverInfo" };
  }

  restartCount(server: string): number {
    return this.servers.get(server)?.restarts ?? 0;
  }

  async callTool(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<ToolCallResult> {
    const started = performance.now();
    const tool = this.toolIndex.get(name);
    if (!tool) {
      return {
        ok: false,
        text: `Unknown tool "${name}"`,
        error: { kind: "unknown_tool", message: `Unknown tool "${name}"` },
        attempts: [],
        durationMs: performance.now() - started,
      };
    }
    const entry = (this.servers.get(tool.server) as LiveServer).entry;
    if (!entry.mock || tool.annotations.readOnlyHint !== true) this.touched.add(tool.server);
    const delays = this.options.retryDelaysMs ?? RETRY_DELAYS_MS;
    const attempts: ToolAttempt[] = [];
    let restarted = false;
    for (let attempt = 1; ; attempt++) {
      const attemptStart = performance.now();
      const server = this.servers.get(tool.server) as LiveServer;
      try {
        const result = (await server.connection.client.request(
          { method: "tools/call", params: { name, arguments: args } },
          CallToolResultSchema,
          { timeout: options.timeoutMs ?? this.options.callTimeoutMs ?? 30_000, signal: options.signal },
        )) as CallToolResult;
        const outcome = this.judge(tool, result);
        attempts.push({
          attempt,
          durationMs: performance.now() - attemptStart,
          outcome: outcome.ok ? "ok" : (outcome.error?.kind ?? "permanent"),
          ...(outcome.ok ? {} : { message: outcome.text }),
          ...(restarted ? { restartedServer: true } : {}),
        });
        return { ...outcome, attempts, durationMs: performance.now() - started };
      } catch (error) {
        const classified = classifyError(error, options.signal);
        const delay = delays[attempt - 1];
        const retrying = classified.retry && delay !== undefined;
        // a server that may be stuck (no answer in time) is replaced for the calls after this one
        const restartAfter = classified.restart && !retrying;
        attempts.push({
          attempt,
          durationMs: performance.now() - attemptStart,
          outcome: classified.kind,
          code: classified.code,
          message: classified.message,
          ...(restarted ? { restartedServer: true } : {}),
          ...(restartAfter ? { restartedAfter: true } : {}),
        });
        restarted = false;
        if (restartAfter) await this.restart(server);
        if (!retrying) {
          const data = error instanceof Error && "data" in error ? (error.data as { missing?: string[] }) : undefined;
          return {
            ok: false,
            text: classified.message,
            error: {
              kind: classified.kind,
              message: classified.message,
              ...(classified.code === undefined ? {} : { code: classified.code }),
              ...(Array.isArray(data?.missing) ? { missing: data.missing } : {}),
            },
            attempts,
            durationMs: performance.now() - started,
          };
        }
        if (classified.restart) {
          await this.restart(server);
          restarted = true;
        }
        if (delay > 0) await sleep(delay);
      }
    }
  }

  /** Resets every server (as its registry entry says). */
  async resetAll(): Promise<ResetsRun> {
    for (const name of this.servers.keys()) this.touched.add(name);
    return this.resetTouched();
  }

  /**
   * Resets the servers that may have changed since their last reset (between queries: the others are still
   * fresh), each as its entry says: a mock through `__reset`, `restart` and `fixture` by a fresh process
   * (in a fresh copy of the fixture), `command` by its reset command, `none` not at all.
   */
  async resetTouched(): Promise<ResetsRun> {
    const resets: ResetsRun = {};
    await Promise.all(
      [...this.touched].map(async (name) => {
        const server = this.servers.get(name) as LiveServer;
        const kind = resetKind(server.entry);
        if (kind === "mock") await this.control.reset(name);
        else if (kind === "restart" || kind === "fixture") await this.restart(server, { fresh: true });
        else if (kind === "command") await runResetCommand(server.entry, entryBaseDir(this.registry, name));
        this.touched.delete(name);
        if (kind !== "none") resets[name] = kind;
      }),
    );
    return resets;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    livePools.delete(this);
    await Promise.all([...this.servers.values()].map((server) => stopServer(server)));
  }

  /** Child pids still running, for the synchronous exit hook. */
  childPids(): number[] {
    return [...this.servers.values()].flatMap((server) => (server.connection.pid ? [server.connection.pid] : []));
  }

  /** Starts a server; a `fixture` server in `fixture` (a copy it already has) or else a fresh copy. */
  private async connect(entry: RegistryEntry, reuse?: string): Promise<LiveServer> {
    const baseDir = entryBaseDir(this.registry, entry.name);
    const fixture = reuse ?? (resetKind(entry) === "fixture" ? copyFixture(entry, baseDir) : undefined);
    try {
      const factory =
        this.options.inProcess?.[entry.name] ?? (entry.mock ? this.options.mocks?.[entry.name] : undefined);
      const connection = await openConnection(entry, {
        transport: this.options.transport,
        baseDir,
        ...(factory ? { inProcess: factory } : {}),
        ...(fixture ? { fixture } : {}),
        ...(entry.start_timeout_s ? { timeoutMs: entry.start_timeout_s * 1000 } : {}),
      });
      return { entry, connection, restarts: 0, ...(fixture ? { fixture } : {}) };
    } catch (error) {
      if (fixture && !reuse) removeFixture(fixture);
      throw error;
    }
  }

  /**
   * A new process for a server: after a crash or a stuck call (the same fixture copy: what it wrote stays,
   * as it would for a real crash), or `fresh` as a reset between tasks (a new copy). Failing to come back
   * mid-run is a run error, not the registry's fault.
   */
  private async restart(server: LiveServer, { fresh = false } = {}): Promise<void> {
    await server.connection.close().catch(() => undefined);
    if (fresh && server.fixture) {
      removeFixture(server.fixture);
      delete server.fixture;
    }
    let next: LiveServer;
    try {
      next = await this.connect(server.entry, server.fixture);
    } catch (cause) {
      throw new ServerResetError(
        "SERVER_RESTART_FAILED",
        `server "${server.entry.name}" could not be restarted: ${(cause as Error).message}`,
        { cause, context: { server: server.entry.name } },
      );
    }
    server.connection = next.connection;
    server.fixture = next.fixture;
    server.restarts += 1;
    await this.applyFaults(server);
  }

  /** The pool's `faults` on a mock, at connect and after every restart (what `control.setFaults` set is lost). */
  private async applyFaults(server: LiveServer): Promise<void> {
    if (this.options.faults && server.entry.mock) {
      await this.control.setFaults(server.entry.name, { ...this.options.faults });
    }
  }

  private async indexTools(server: LiveServer): Promise<void> {
    let cursor: string | undefined;
    do {
      const page = await server.connection.client.listTools(cursor ? { cursor } : undefined);
      for (const tool of page.tools) {
        if (tool.name.startsWith(CONTROL_TOOL_PREFIX)) continue;
        const existing = this.toolIndex.get(tool.name);
        if (existing) {
          throw new ToolNameConflictError(
            "TOOL_NAME_CONFLICT",
            `tool "${tool.name}" is provided by both "${existing.server}" and "${server.entry.name}"; connect only one of them`,
          );
        }
        this.listed = undefined;
        this.toolIndex.set(tool.name, {
          server: server.entry.name,
          name: tool.name,
          description: tool.description ?? "",
          inputSchema: tool.inputSchema as ToolDefinition["inputSchema"],
          ...(tool.outputSchema ? { outputSchema: tool.outputSchema as ToolDefinition["inputSchema"] } : {}),
          annotations: tool.annotations ?? {},
        });
      }
      cursor = page.nextCursor;
    } while (cursor);
  }

  private judge(tool: ToolDefinition, result: CallToolResult): Omit<ToolCallResult, "attempts" | "durationMs"> {
    const text = result.content.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join("\n");
    if (result.isError) return { ok: false, text, error: { kind: "tool_error", message: text } };
    if (tool.outputSchema) {
      if (result.structuredContent === undefined) {
        const message = `${tool.name}: result has no structuredContent although the tool declares an outputSchema`;
        return { ok: false, text: message, error: { kind: "schema_violation", message } };
      }
      const problem = this.validator.check(tool.server, tool.name, tool.outputSchema, result.structuredContent);
      if (problem) {
        const message = `${tool.name}: result breaks its outputSchema: ${problem}`;
        return { ok: false, text: message, error: { kind: "schema_violation", message } };
      }
    }
    return { ok: true, data: result.structuredContent ?? parseText(text), text };
  }
}

async function stopServer(server: LiveServer): Promise<void> {
  await server.connection.close().catch(() => undefined);
  if (server.fixture) removeFixture(server.fixture);
}

function parseText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text; // plain-text results stay text
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

let hooksInstalled = false;
let stopSignalsOwned = false;

/**
 * A command that stops gracefully on SIGINT/SIGTERM (bench: the run finishes its records and says how to resume)
 * decides itself when to exit; the pools' hook then leaves the signal alone (children are still killed on exit).
 */
export function ownStopSignals(owned: boolean): void {
  stopSignalsOwned = owned;
}

/** No orphan processes: close pools on SIGINT/SIGTERM (unless the command handles them), kill any child still alive on exit. */
function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on("exit", () => {
    for (const pool of livePools) {
      for (const pid of pool.childPids()) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    }
  });
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    const onSignal = () => {
      if (stopSignalsOwned) return;
      void Promise.all([...livePools].map((pool) => pool.close())).finally(() => process.exit(code));
    };
    process.on(signal, onSignal);
  }
}
