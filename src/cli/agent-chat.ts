/**
 * `agent --chat` and `agent --continue ID "…"`: a conversation in the terminal. `--chat` reads one user
 * turn per line of stdin (a terminal or a pipe) until end of input (Ctrl-D); `--continue ID` runs its
 * query as the next turn of a stored conversation (with `--chat`, goes on reading lines after it). Each
 * finished turn is stored as the service stores its conversations (serve/conversation-store.ts), so
 * either can continue what the other started. A turn shows its answer, its whole trace with `--trace`, or
 * one JSON line with `--json`.
 */

import { resolve } from "node:path";
import { createInterface } from "node:readline";
import type { Command } from "commander";
import { turnFromResult } from "../agent/history.ts";
import type { AgentQueryOptions } from "../bench/run/agent-query.ts";
import { openQueryServers, runAgentQuery } from "../bench/run/agent-query.ts";
import { harnessRedactor } from "../bench/run/secrets.ts";
import { resultsRoot } from "../bench/run/store.ts";
import type { ClientPool } from "../mcp/pool.ts";
import { replayWrites } from "../serve/conversation-sessions.ts";
import { ConversationStore, type StoredConversation } from "../serve/conversation-store.ts";
import { ApiError } from "../serve/errors.ts";
import { type AgentFlags, AgentRunError, traceText } from "./agent.ts";
import { FlagError } from "./flags.ts";

type RunOptions = Pick<AgentQueryOptions, "model"> & Partial<AgentQueryOptions>;

export async function runChat(
  query: string | undefined,
  flags: AgentFlags,
  command: Command,
  optionsFor: (run: RunOptions) => AgentQueryOptions,
): Promise<void> {
  checkFlags(query, flags);
  const store = new ConversationStore(resolve(flags.results ?? resultsRoot()));
  const conversation = flags.continue === undefined ? undefined : stored(store, flags.continue);
  const model = flags.model ?? conversation?.model;
  if (!model) {
    throw new FlagError(
      "BAD_FLAG",
      "--model is required, e.g. --model sim:slm-3b (no weights needed) or --model qwen2.5:3b",
    );
  }
  // a continued conversation keeps its configuration unless --config is given
  const configName =
    command.getOptionValueSource("config") === "cli" ? flags.config : (conversation?.config ?? flags.config);
  const chat = new Chat(store, conversation, { model, configName }, flags, optionsFor);
  try {
    if (query !== undefined) {
      const ok = await chat.turn(query);
      if (!flags.chat) {
        if (!ok) throw new AgentRunError("AGENT_RUN_ERROR", "the turn ended in error: it was not stored");
        return;
      }
    }
    const lines = createInterface({ input: process.stdin, terminal: false });
    const prompt = () => {
      if (process.stdin.isTTY) process.stderr.write("you> ");
    };
    prompt();
    for await (const line of lines) {
      if (line.trim() !== "") await chat.turn(line.trim());
      prompt();
    }
  } finally {
    await chat.done();
  }
}

function checkFlags(query: string | undefined, flags: AgentFlags): void {
  if (flags.item !== undefined)
    throw new FlagError("BAD_FLAG", "--item runs a dataset item alone: leave out --chat and --continue");
  if (flags.chat && query !== undefined && flags.continue === undefined) {
    throw new FlagError("BAD_FLAG", "--chat reads its turns from stdin: leave out the query (or give --continue ID)");
  }
  if (!flags.chat && (query === undefined || query.trim() === "")) {
    throw new FlagError("BAD_FLAG", '--continue ID needs the next turn: agent --continue ID "…" (or add --chat)');
  }
}

function stored(store: ConversationStore, id: string): StoredConversation {
  try {
    return store.get(id);
  } catch (error) {
    if (error instanceof ApiError)
      throw new FlagError("BAD_FLAG", `--continue ${id}: ${error.message} (in ${store.dir})`);
    throw error;
  }
}

class Chat {
  private conversation: StoredConversation | undefined;
  private readonly redactor;
  /**
   * The conversation's servers, kept from turn to turn so a write is there in the next turn. A continued
   * conversation's are fresh, with its stored writes replayed (serve/conversation-sessions.ts); so are
   * those after a turn that ended in error (it was not stored: neither are its writes).
   */
  private servers: ClientPool | undefined;

  constructor(
    private readonly store: ConversationStore,
    conversation: StoredConversation | undefined,
    private readonly run: { model: string; configName: string },
    private readonly flags: AgentFlags,
    private readonly optionsFor: (run: RunOptions) => AgentQueryOptions,
  ) {
    this.conversation = conversation;
    this.redactor = harnessRedactor(flags.models, flags.registry);
  }

  /** One turn: run, show, store. False when the run ended in error (shown, not stored). */
  async turn(text: string): Promise<boolean> {
    const controller = new AbortController();
    const stop = () => controller.abort(new Error("interrupted"));
    process.once("SIGINT", stop);
    const history = this.conversation?.turns ?? [];
    let outcome: Awaited<ReturnType<typeof runAgentQuery>>;
    try {
      const options = this.optionsFor({
        ...this.run,
        query: text,
        history,
        ...(this.conversation?.system ? { context: this.conversation.system } : {}),
        signal: controller.signal,
      });
      outcome = await runAgentQuery({ ...options, servers: await this.session(options) });
    } finally {
      process.off("SIGINT", stop);
    }
    const { result } = outcome;
    if (!result.error) this.save(turnFromResult(result));
    else await this.closeServers();
    const turn = history.length + 1;
    const shown = this.flags.json
      ? `${JSON.stringify({ conversationId: this.conversation?.id ?? null, turn, result })}\n`
      : this.flags.trace
        ? traceText(outcome, { config: this.run.configName, verbose: this.flags.verbose })
        : `${result.answer}\n`;
    process.stdout.write(this.redactor.text(shown));
    if (result.error) {
      process.stderr.write(
        this.redactor.text(
          `turn ${turn} ended in error in ${result.error.stage}: ${result.error.message} (not stored)\n`,
        ),
      );
    }
    return !result.error;
  }

  /** The servers for the next turn: the ones held, or fresh ones with the stored writes replayed. */
  private async session(options: AgentQueryOptions): Promise<ClientPool> {
    if (this.servers) return this.servers;
    const servers = await openQueryServers(options);
    this.servers = servers;
    if (this.conversation) {
      const info = await replayWrites(servers, this.conversation);
      if (info.state === "replayed") {
        process.stderr.write(
          `conversation ${this.conversation.id}: state rebuilt by replaying ${info.replayedCalls} stored write${info.replayedCalls === 1 ? "" : "s"}` +
            `${info.failedReplays > 0 ? ` (${info.failedReplays} refused: the state may differ)` : ""}\n`,
        );
      }
    }
    return servers;
  }

  private async closeServers(): Promise<void> {
    const servers = this.servers;
    this.servers = undefined;
    await servers?.close();
  }

  /** Where the conversation is, to continue it; the servers are closed. */
  async done(): Promise<void> {
    await this.closeServers();
    const conversation = this.conversation;
    process.stderr.write(
      conversation
        ? `conversation ${conversation.id}: ${conversation.turns.length} turns stored; continue with: pnpm agent --continue ${conversation.id} "…"\n`
        : "no turn was stored\n",
    );
  }

  private save(turn: StoredConversation["turns"][number]): void {
    const now = new Date().toISOString();
    const conversation: StoredConversation = this.conversation ?? {
      id: this.store.newId(),
      createdAt: now,
      updatedAt: now,
      model: this.run.model,
      config: this.run.configName,
      turns: [],
    };
    this.conversation = { ...conversation, updatedAt: now, turns: [...conversation.turns, turn] };
    this.store.save(this.conversation);
  }
}
