/**
 * Conversations of `POST /run` and `agent --chat`, one JSON file each under `<results>/conversations/`,
 * each written whole (store.ts `writeJsonAtomic`): a reader never sees half a file, a failed turn leaves
 * the file as it was, and the conversations outlive the process that held them.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { ConversationTurn } from "../agent/history.ts";
import { writeJsonAtomic } from "../bench/run/store.ts";
import { ApiError } from "./errors.ts";

export const CONVERSATIONS_FOLDER = "conversations";

const historyCall = z.object({
  tool: z.string(),
  args: z.record(z.string(), z.unknown()),
  ok: z.boolean(),
  text: z.string(),
  data: z.unknown().optional(),
});

const storedConversation = z.object({
  id: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  model: z.string(),
  config: z.string().optional(),
  /** The `system` messages a conversation was started with, given to every turn as context. */
  system: z.string().optional(),
  /** Turns that came with the `messages` the conversation was started with: told, not run here (never replayed). */
  given: z.number().int().min(0).optional(),
  turns: z.array(z.object({ user: z.string(), calls: z.array(historyCall), answer: z.string() })),
});

export type StoredConversation = z.infer<typeof storedConversation> & { turns: ConversationTurn[] };

export interface ConversationListEntry {
  id: string;
  model: string;
  config?: string;
  turns: number;
  /** The first user turn, as a title. */
  first: string;
  createdAt: string;
  updatedAt: string;
}

/** Ids are what the file names are made of: nothing a path could be built from. */
const ID_PATTERN = /^[A-Za-z0-9-]{1,80}$/;

export class ConversationStore {
  readonly dir: string;
  /** Turns of one conversation run one after another (a turn's history is the turn before it). */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(resultsRoot: string) {
    this.dir = join(resultsRoot, CONVERSATIONS_FOLDER);
  }

  /** A new id: sortable by time, unique enough for one machine (`c-20261126-170102-3f9a1c`). */
  newId(now: Date = new Date()): string {
    const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
    return `c-${stamp}-${randomBytes(3).toString("hex")}`;
  }

  /** The stored conversation; 404 when there is none of that id. */
  get(id: string): StoredConversation {
    const file = this.file(id);
    if (!file || !existsSync(file)) {
      throw new ApiError(404, "UNKNOWN_CONVERSATION", `no stored conversation has the id "${id}"`, {
        field: "conversationId",
      });
    }
    return readConversation(file);
  }

  save(conversation: StoredConversation): void {
    const file = this.file(conversation.id);
    if (!file) throw new Error(`conversation id "${conversation.id}" is not a file name`);
    writeJsonAtomic(file, conversation);
  }

  /** Every stored conversation, the latest changed first; a damaged file is left out. */
  list(): ConversationListEntry[] {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir)
      .filter((name) => name.endsWith(".json"))
      .flatMap((name) => {
        try {
          return [entryOf(readConversation(join(this.dir, name)))];
        } catch {
          return [];
        }
      })
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id));
  }

  /** Runs `work` after every earlier piece of work on the same conversation has ended. */
  async serially<T>(id: string, work: () => Promise<T>): Promise<T> {
    const before = this.queues.get(id) ?? Promise.resolve();
    const running = before.catch(() => undefined).then(work);
    this.queues.set(id, running);
    try {
      return await running;
    } finally {
      if (this.queues.get(id) === running) this.queues.delete(id);
    }
  }

  private file(id: string): string | undefined {
    return ID_PATTERN.test(id) ? join(this.dir, `${id}.json`) : undefined;
  }
}

function readConversation(file: string): StoredConversation {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (cause) {
    throw new ApiError(500, "CONVERSATION_INVALID", `${file}: not valid JSON`, { cause });
  }
  const parsed = storedConversation.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ApiError(
      500,
      "CONVERSATION_INVALID",
      `${file}: ${issue.path.join(".") || "(top level)"}: ${issue.message}`,
    );
  }
  return parsed.data as StoredConversation;
}

function entryOf(conversation: StoredConversation): ConversationListEntry {
  return {
    id: conversation.id,
    model: conversation.model,
    ...(conversation.config ? { config: conversation.config } : {}),
    turns: conversation.turns.length,
    first: conversation.turns[0]?.user ?? "",
    createdAt: conversation.createdAt,
    updatedAt: conversation.updatedAt,
  };
}
