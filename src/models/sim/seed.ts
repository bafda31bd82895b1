/**
 * The text a request's draws are seeded from, and its hash. A completion's text is its prompt; a chat
 * request's is its messages and tool names as JSON, kept as the first message and the JSON after it and
 * hashed in those pieces (hash32 reads text in pieces), so the first message — the system prompt, the
 * same on every request of a configuration, ~100 KB for jsonl — is serialised and hashed once per start
 * state instead of on every turn. The hash is the same as of the whole JSON text.
 */

import { canonicalJson } from "../../json.ts";
import { BoundedCache } from "../../memo.ts";
import type { ChatMessage } from "../types.ts";
import { HASH_START, type HashState, hashDigest, hashUpdate } from "./random.ts";

/** The prompt, or a chat request's JSON: `{"messages":[…],"tools":[names]}` in this fixed key order. */
export type SeedText = string | ChatSeedText;

/** A chat request's JSON as its first message (hashed through a cache) and the JSON text after it. */
export interface ChatSeedText {
  first?: ChatMessage;
  rest: string;
}

const MESSAGES_OPEN = '{"messages":[';

/** `toolNames`: the native tools' names; absent when the request has no `tools`. */
export function chatSeedText(messages: readonly ChatMessage[], toolNames?: string[]): ChatSeedText {
  const [first, ...others] = messages;
  if (!first) return { rest: JSON.stringify({ messages: [], tools: toolNames }).slice(MESSAGES_OPEN.length) };
  // `0` stands in for the first message and is cut off with the opening: the rest stays one flat string.
  const json = JSON.stringify({ messages: [0, ...others.map(messageRecord)], tools: toolNames });
  return { first, rest: json.slice(MESSAGES_OPEN.length + 1) };
}

/** The seed of a request's draws: hash32 of profile, seed, stage and text joined by NUL. */
export function requestSeed(profile: string, seed: number, stage: string, text: SeedText): number {
  return hashDigest(hashSeedText(hashUpdate(HASH_START, `${profile}\u0000${seed}\u0000${stage}\u0000`), text));
}

/** Native call ids: `call_` and, in hex, hash32 of the request text, NUL and the call's index. */
export function nativeCallIds(text: SeedText): (index: number) => string {
  let state: HashState | undefined;
  return (index) => {
    state ??= hashSeedText(HASH_START, text);
    return `call_${hashDigest(hashUpdate(state, `\u0000${index}`))
      .toString(16)
      .padStart(8, "0")}`;
  };
}

/** The hash state after `text`, from `state`. */
function hashSeedText(state: HashState, text: SeedText): HashState {
  if (typeof text === "string") return hashUpdate(state, text);
  const open = hashUpdate(state, MESSAGES_OPEN);
  return hashUpdate(text.first ? hashFirstMessage(open, text.first) : open, text.rest);
}

/** Fixed key order everywhere; canonical only where a model wrote the keys (a call's arguments). */
function messageRecord(message: ChatMessage): object {
  return {
    role: message.role,
    content: message.content,
    toolCalls: message.toolCalls?.map((call) => ({ name: call.name, arguments: canonicalJson(call.arguments) })),
  };
}

/** First-message content → (start state, role) → the state after it; both levels bounded. */
const KEPT = 64;
const firstMessages = new BoundedCache<string, BoundedCache<string, HashState>>(KEPT);

function hashFirstMessage(state: HashState, message: ChatMessage): HashState {
  if (message.toolCalls !== undefined) return hashUpdate(state, JSON.stringify(messageRecord(message)));
  const byStart = firstMessages.get(message.content, () => new BoundedCache<string, HashState>(KEPT));
  return byStart.get(`${state.h1} ${state.h2} ${message.role}`, () =>
    hashUpdate(state, JSON.stringify(messageRecord(message))),
  );
}
