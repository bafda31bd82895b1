/**
 * One session of servers per live conversation, so a write in one turn is there in the next (`POST /run`
 * with `conversationId`, `run_query`, `agent --chat` / `--continue`). A conversation whose session is not
 * held — the service restarted, or the session was let go — gets fresh servers, and the state-changing
 * calls its stored turns made are replayed on them in order: what the mock servers hold then is what the
 * conversation left. Turns a conversation was started with (`messages`) were told, not run here: their
 * calls are never replayed.
 */
import type { ConversationTurn } from "../agent/history.ts";
import { isWriteTool } from "../agent/write-guard.ts";
import type { ClientPool } from "../mcp/pool.ts";

/** How a turn's servers came to be: held from the turn before, fresh with the stored writes replayed, or fresh. */
export type SessionState = "live" | "replayed" | "new";

export interface SessionInfo {
  state: SessionState;
  /** Stored calls replayed on fresh servers (state `replayed`). */
  replayedCalls: number;
  /** Replayed calls the servers refused: the state may differ from the one the conversation left. */
  failedReplays: number;
}

export interface SessionConversation {
  id: string;
  turns: readonly ConversationTurn[];
  /** Turns given with the conversation's `messages` (the first ones): not run here, not replayed. */
  given?: number;
}

/** At most this many sessions are held; the least recently used is closed first (its state is replayed when it returns). */
export const HELD_SESSIONS = 16;

interface Held {
  key: string;
  servers: ClientPool;
}

export class ConversationSessions {
  private readonly held = new Map<string, Held>();

  constructor(private readonly limit: number = HELD_SESSIONS) {}

  /**
   * The conversation's servers for its next turn. `key` names what the servers are made of (the
   * registry): a turn asking for other servers gets fresh ones, replayed.
   */
  async acquire(
    conversation: SessionConversation,
    key: string,
    open: () => Promise<ClientPool>,
  ): Promise<{ servers: ClientPool; info: SessionInfo }> {
    const held = this.held.get(conversation.id);
    if (held && held.key === key) {
      // most recently used last: the map's order is the eviction order
      this.held.delete(conversation.id);
      this.held.set(conversation.id, held);
      return { servers: held.servers, info: { state: "live", replayedCalls: 0, failedReplays: 0 } };
    }
    if (held) await this.release(conversation.id);
    const servers = await open();
    const info = await replayWrites(servers, conversation);
    this.held.set(conversation.id, { key, servers });
    while (this.held.size > this.limit) await this.release(this.held.keys().next().value as string);
    return { servers, info };
  }

  /** Closes the conversation's servers (a turn that failed: the next one replays what was stored). */
  async release(id: string): Promise<void> {
    const held = this.held.get(id);
    if (!held) return;
    this.held.delete(id);
    await held.servers.close();
  }

  async close(): Promise<void> {
    for (const id of [...this.held.keys()]) await this.release(id);
  }
}

/** Replays, in order, the stored calls that succeeded on a tool that writes; reads change nothing. */
export async function replayWrites(servers: ClientPool, conversation: SessionConversation): Promise<SessionInfo> {
  const writes = new Set(
    servers
      .listTools()
      .filter(isWriteTool)
      .map((tool) => tool.name),
  );
  const calls = conversation.turns
    .slice(conversation.given ?? 0)
    .flatMap((turn) => turn.calls)
    .filter((call) => call.ok && writes.has(call.tool));
  let failedReplays = 0;
  for (const call of calls) {
    const result = await servers.callTool(call.tool, call.args);
    if (!result.ok) failedReplays += 1;
  }
  const state: SessionState = conversation.turns.length > (conversation.given ?? 0) ? "replayed" : "new";
  return { state, replayedCalls: calls.length, failedReplays };
}
