import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../json.ts";
import type { ChatMessage } from "../types.ts";
import { HASH_START, hash32, hashDigest, hashUpdate } from "./random.ts";
import { chatSeedText, nativeCallIds, requestSeed } from "./seed.ts";

/** The seed text as one string, the way it is specified: the chat request as JSON in a fixed key order. */
function chatJson(messages: readonly ChatMessage[], toolNames?: string[]): string {
  return JSON.stringify({
    messages: messages.map((message) => ({
      role: message.role,
      content: message.content,
      toolCalls: message.toolCalls?.map((call) => ({ name: call.name, arguments: canonicalJson(call.arguments) })),
    })),
    tools: toolNames,
  });
}

const SYSTEM = `Answer with JSON lines.\nTools (arguments as JSON Schema):\n${'{"name":"list_issues","parameters":{"type":"object"}}\n'.repeat(200)}"quoted" \\ back\tslash é 😀`;

const conversation: ChatMessage[] = [
  { role: "system", content: SYSTEM },
  { role: "user", content: "List the open issues in acme/webapp" },
  {
    role: "assistant",
    content: "",
    toolCalls: [{ id: "call_1", name: "list_issues", arguments: { repo: "webapp", owner: "acme" } }],
  },
  { role: "tool", content: '[{"title":"Login fails"}]', toolCallId: "call_1", toolName: "list_issues" },
];

describe("hash32 read in pieces", () => {
  it("gives the hash of the whole text wherever the text is cut", () => {
    for (const text of ["", "a", "profile\u0000seed", "é😀 and \u2028 more", SYSTEM]) {
      for (const cut of [0, 1, Math.floor(text.length / 2), text.length]) {
        const state = hashUpdate(hashUpdate(HASH_START, text.slice(0, cut)), text.slice(cut));
        expect(hashDigest(state)).toBe(hash32(text));
      }
    }
  });
});

describe("a request's seed", () => {
  it("is hash32 of profile, seed, stage and prompt joined by NUL for a completion", () => {
    const prompt = "Question: List the open issues in acme/webapp\nThought:";
    expect(requestSeed("slm-3b", 7, "react", prompt)).toBe(hash32(`slm-3b\u00007\u0000react\u0000${prompt}`));
  });

  it("is hash32 of the chat request's JSON, with or without tools, on every turn and for every start", () => {
    const names = ["list_issues", "issue_read"];
    for (let turn = 0; turn <= conversation.length; turn++) {
      const messages = conversation.slice(0, turn);
      for (const [profile, seed, stage] of [
        ["slm-3b", 1, "jsonl"],
        ["slm-3b", 1, "jsonl"], // again: the system prompt's state comes from the cache
        ["slm-7b", 1, "jsonl"],
        ["slm-3b", 2, "native"],
      ] as const) {
        const expected = hash32(`${profile}\u0000${seed}\u0000${stage}\u0000${chatJson(messages)}`);
        expect(requestSeed(profile, seed, stage, chatSeedText(messages))).toBe(expected);
        const withTools = hash32(`${profile}\u0000${seed}\u0000${stage}\u0000${chatJson(messages, names)}`);
        expect(requestSeed(profile, seed, stage, chatSeedText(messages, names))).toBe(withTools);
      }
    }
  });

  it("reads a first message with tool calls, or with another role, as it is", () => {
    const first = conversation[2] as ChatMessage;
    const messages = [first, { role: "user", content: "and now?" }] as ChatMessage[];
    expect(requestSeed("oracle", 0, "native", chatSeedText(messages))).toBe(
      hash32(`oracle\u00000\u0000native\u0000${chatJson(messages)}`),
    );
    const asUser: ChatMessage[] = [{ role: "user", content: SYSTEM }];
    requestSeed("oracle", 0, "jsonl", chatSeedText([{ role: "system", content: SYSTEM }]));
    expect(requestSeed("oracle", 0, "jsonl", chatSeedText(asUser))).toBe(
      hash32(`oracle\u00000\u0000jsonl\u0000${chatJson(asUser)}`),
    );
  });
});

describe("native call ids", () => {
  it("are call_ and hash32 of the request text, NUL and the index, in 8 hex digits", () => {
    const text = chatSeedText(conversation, ["list_issues"]);
    const ids = nativeCallIds(text);
    for (const index of [0, 1, 12]) {
      const hash = hash32(`${chatJson(conversation, ["list_issues"])}\u0000${index}`);
      expect(ids(index)).toBe(`call_${hash.toString(16).padStart(8, "0")}`);
    }
  });
});
