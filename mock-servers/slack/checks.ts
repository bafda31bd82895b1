import type { StateCheck, StateCheckResult } from "../kit/types.ts";
import { findMessage } from "./lookup.ts";
import type { SessionWrite, SlackState } from "./state.ts";

/** Checks accept a channel by ID or by name ("general" / "#general"), for the dataset author's convenience. */
function resolveChannelId(state: SlackState, ref: unknown): string {
  const wanted = String(ref ?? "").replace(/^#/, "");
  return state.channels.find((channel) => channel.id === wanted || channel.name === wanted)?.id ?? wanted;
}

function contains(text: string, needle: unknown): boolean {
  return needle === undefined || text.toLowerCase().includes(String(needle).toLowerCase());
}

function describe(state: SlackState, writes: SessionWrite[]): string {
  if (writes.length === 0) return "no posts in this session";
  return writes
    .map((write) => `${write.kind} ${write.ts}: ${JSON.stringify(findMessage(state, write.channel, write.ts)?.text)}`)
    .join("; ");
}

/** Posts of this session in a channel: top-level when threadTs is undefined, else replies in that thread. */
function matchPosts(state: SlackState, args: Record<string, unknown>, threadTs: string | undefined): StateCheckResult {
  const channel = resolveChannelId(state, args.channel_id);
  const kind = threadTs === undefined ? "message" : "reply";
  const posts = state.writes.filter((write) => write.kind === kind && write.channel === channel);
  const hit = posts.find((write) => {
    const message = findMessage(state, channel, write.ts);
    return message !== undefined && contains(message.text, args.text_contains) && message.thread_ts === threadTs;
  });
  const where = threadTs === undefined ? channel : `${channel} thread ${threadTs}`;
  return hit
    ? { pass: true, detail: `${kind} ${hit.ts} in ${where} matches` }
    : { pass: false, detail: `no matching ${kind} in ${where} (${describe(state, posts)})` };
}

export const slackChecks: Record<string, StateCheck<SlackState>> = {
  /** {channel_id, text_contains, thread_ts?}: a message posted this session (a reply when thread_ts is given). */
  message_posted: (state, args) =>
    matchPosts(state, args, args.thread_ts === undefined ? undefined : String(args.thread_ts)),

  /** {channel_id, thread_ts, text_contains?}: a reply posted this session in that thread. */
  reply_posted: (state, args) => matchPosts(state, args, String(args.thread_ts)),

  /** {channel_id, timestamp, reaction}: the app reacted to that message this session. */
  reaction_added: (state, args) => {
    const channel = resolveChannelId(state, args.channel_id);
    const hit = state.writes.some(
      (write) =>
        write.kind === "reaction" &&
        write.channel === channel &&
        write.ts === String(args.timestamp) &&
        write.reaction === String(args.reaction),
    );
    const reactions = state.writes.filter((write) => write.kind === "reaction").map((w) => `${w.reaction}@${w.ts}`);
    return {
      pass: hit,
      detail: hit
        ? `:${String(args.reaction)}: added to ${String(args.timestamp)}`
        : `no :${String(args.reaction)}: on ${channel}/${String(args.timestamp)} (reactions this session: ${reactions.join(", ") || "none"})`,
    };
  },

  /** {channel_id?}: nothing was posted (anywhere, or in that channel) this session. */
  nothing_posted: (state, args) => {
    const channel = args.channel_id === undefined ? undefined : resolveChannelId(state, args.channel_id);
    const posts = state.writes.filter(
      (write) => write.kind !== "reaction" && (channel === undefined || write.channel === channel),
    );
    return { pass: posts.length === 0, detail: describe(state, posts) };
  },
};
