import { pristineState } from "../kit/pristine.ts";
import channelsFixture from "./fixtures/channels.json" with { type: "json" };
import messagesFixture from "./fixtures/messages.json" with { type: "json" };
import teamFixture from "./fixtures/team.json" with { type: "json" };
import usersFixture from "./fixtures/users.json" with { type: "json" };

export interface SlackTeam {
  id: string;
  name: string;
  domain: string;
  /** The bot user every write of this server is made as (the reference server uses a bot token). */
  bot_user_id: string;
  bot_id: string;
}

export interface SlackUser {
  id: string;
  name: string;
  real_name: string;
  display_name: string;
  title: string;
  email: string;
  phone: string;
  tz: string;
  first_name: string;
  last_name: string;
  status_text: string;
  status_emoji: string;
  is_admin: boolean;
  is_bot: boolean;
  deleted: boolean;
}

export interface SlackChannel {
  id: string;
  name: string;
  is_private: boolean;
  is_archived: boolean;
  created: number;
  creator: string;
  topic: string;
  purpose: string;
  members: string[];
}

export interface SlackReaction {
  name: string;
  users: string[];
  count: number;
}

/** A message as Slack's conversations.* methods return it (thread fields only where they apply). */
export interface SlackMessage {
  type: "message";
  ts: string;
  user: string;
  text: string;
  team: string;
  bot_id?: string;
  thread_ts?: string;
  parent_user_id?: string;
  reply_count?: number;
  reply_users?: string[];
  reply_users_count?: number;
  latest_reply?: string;
  reactions?: SlackReaction[];
}

/** Where a write of this session landed, so checks can tell new messages and reactions from fixture ones. */
export interface SessionWrite {
  kind: "message" | "reply" | "reaction";
  channel: string;
  ts: string;
  reaction?: string;
}

export interface SlackState {
  team: SlackTeam;
  users: SlackUser[];
  channels: SlackChannel[];
  /** Messages per channel id, oldest first; replies sit beside their parent and carry thread_ts. */
  messages: Record<string, SlackMessage[]>;
  /** Counter behind new message timestamps (`<now seconds>.<counter × 100>`). */
  postCounter: number;
  writes: SessionWrite[];
}

interface FixtureMessage {
  ts: string;
  user: string;
  text: string;
  thread_ts?: string;
  reactions?: { name: string; users: string[] }[];
}

function buildSlackState(): SlackState {
  const team = structuredClone(teamFixture) as SlackTeam;
  const messages: Record<string, SlackMessage[]> = {};
  for (const [channelId, list] of Object.entries(messagesFixture as Record<string, FixtureMessage[]>)) {
    messages[channelId] = list.map((message) => toMessage(message, team.id));
    for (const message of messages[channelId]) {
      if (message.thread_ts === undefined) continue;
      const parent = messages[channelId].find((candidate) => candidate.ts === message.thread_ts);
      if (parent) recordReply(parent, message);
    }
  }
  return {
    team,
    users: structuredClone(usersFixture) as SlackUser[],
    channels: structuredClone(channelsFixture) as SlackChannel[],
    messages,
    postCounter: 0,
    writes: [],
  };
}

function toMessage(fixture: FixtureMessage, teamId: string): SlackMessage {
  const message: SlackMessage = {
    type: "message",
    ts: fixture.ts,
    user: fixture.user,
    text: fixture.text,
    team: teamId,
  };
  if (fixture.thread_ts !== undefined) message.thread_ts = fixture.thread_ts;
  if (fixture.reactions) {
    message.reactions = fixture.reactions.map((reaction) => ({
      name: reaction.name,
      users: [...reaction.users],
      count: reaction.users.length,
    }));
  }
  return message;
}

/** Keeps a thread parent's reply_count / reply_users / latest_reply in step with its replies, as Slack does. */
export function recordReply(parent: SlackMessage, reply: SlackMessage): void {
  parent.thread_ts = parent.ts;
  reply.parent_user_id = parent.user;
  const users = parent.reply_users ?? [];
  if (!users.includes(reply.user)) users.push(reply.user);
  parent.reply_users = users;
  parent.reply_users_count = users.length;
  parent.reply_count = (parent.reply_count ?? 0) + 1;
  parent.latest_reply = reply.ts;
}

/** A fresh workspace from the fixtures, every object a new copy: built once, copied on every later call (a reset). */
export const createSlackState: () => SlackState = pristineState(buildSlackState);
