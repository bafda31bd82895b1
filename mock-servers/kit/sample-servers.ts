/**
 * Two compact mock servers for the agent's end-to-end tests: a GitHub-like one (list_issues,
 * issue_read, issue_write with `method`, get_me — names and parameters as the real server) and a
 * Slack-like one (slack_list_channels, slack_post_message).
 */

import { ToolError } from "./errors.ts";
import type { ServerSpec } from "./types.ts";

interface Issue {
  number: number;
  title: string;
  body: string;
  state: "open" | "closed";
}

export interface HubState {
  user: { login: string; name: string };
  repos: Record<string, Issue[]>;
}

const repoArgs = { owner: { type: "string" }, repo: { type: "string" } };
const issueShape = {
  type: "object",
  properties: {
    number: { type: "number" },
    title: { type: "string" },
    state: { type: "string" },
    url: { type: "string" },
  },
  required: ["number", "title", "state"],
};

function repoIssues(state: HubState, args: Record<string, unknown>): Issue[] {
  const key = `${String(args.owner)}/${String(args.repo)}`;
  const issues = state.repos[key];
  if (!issues) throw new ToolError("not_found", `repository ${key} not found`);
  return issues;
}

function issueView(owner: unknown, repo: unknown, issue: Issue) {
  return {
    number: issue.number,
    title: issue.title,
    state: issue.state,
    url: `https://github.com/${String(owner)}/${String(repo)}/issues/${issue.number}`,
  };
}

export const hubSpec: ServerSpec<HubState> = {
  name: "github",
  version: "0.0.1",
  purpose: "A few GitHub tools for the agent's tests.",
  createState: () => ({
    user: { login: "octo-dev", name: "Octo Dev" },
    repos: {
      "acme/webapp": [
        { number: 1, title: "Login fails", body: "500 on submit", state: "open" },
        { number: 2, title: "Dark mode", body: "Add a dark theme", state: "closed" },
      ],
    },
  }),
  tools: [
    {
      name: "list_issues",
      description: "List issues in a GitHub repository, optionally filtered by state.",
      inputSchema: {
        type: "object",
        properties: { ...repoArgs, state: { type: "string", enum: ["OPEN", "CLOSED"] }, perPage: { type: "number" } },
        required: ["owner", "repo"],
      },
      outputSchema: {
        type: "object",
        properties: { issues: { type: "array", items: issueShape }, totalCount: { type: "number" } },
        required: ["issues", "totalCount"],
      },
      annotations: { readOnlyHint: true },
      handler: (args, { state }) => {
        const wanted = typeof args.state === "string" ? args.state.toLowerCase() : undefined;
        const issues = repoIssues(state, args)
          .filter((issue) => !wanted || issue.state === wanted)
          .map((issue) => issueView(args.owner, args.repo, issue));
        return { issues, totalCount: issues.length };
      },
    },
    {
      name: "issue_read",
      description: "Get information about a specific issue in a GitHub repository.",
      inputSchema: {
        type: "object",
        properties: {
          method: { type: "string", enum: ["get", "get_comments"] },
          ...repoArgs,
          issue_number: { type: "number" },
        },
        required: ["method", "owner", "repo", "issue_number"],
      },
      outputSchema: { ...issueShape, properties: { ...issueShape.properties, body: { type: "string" } } },
      annotations: { readOnlyHint: true },
      handler: (args, { state }) => {
        const issue = repoIssues(state, args).find((candidate) => candidate.number === args.issue_number);
        if (!issue) throw new ToolError("not_found", `issue #${String(args.issue_number)} not found`);
        return { ...issueView(args.owner, args.repo, issue), body: issue.body };
      },
    },
    {
      name: "issue_write",
      description: "Create a new or update an existing issue in a GitHub repository.",
      inputSchema: {
        type: "object",
        properties: {
          method: { type: "string", enum: ["create", "update"] },
          ...repoArgs,
          issue_number: { type: "number" },
          title: { type: "string" },
          body: { type: "string" },
          state: { type: "string", enum: ["open", "closed"] },
        },
        required: ["method", "owner", "repo"],
      },
      outputSchema: issueShape,
      annotations: { readOnlyHint: false, destructiveHint: false },
      handler: (args, { state }) => {
        const issues = repoIssues(state, args);
        if (args.method === "create") {
          if (typeof args.title !== "string" || !args.title)
            throw new ToolError("invalid", "title is required to create an issue");
          const issue: Issue = {
            number: issues.length + 1,
            title: args.title,
            body: typeof args.body === "string" ? args.body : "",
            state: "open",
          };
          issues.push(issue);
          return issueView(args.owner, args.repo, issue);
        }
        const issue = issues.find((candidate) => candidate.number === args.issue_number);
        if (!issue) throw new ToolError("not_found", `issue #${String(args.issue_number)} not found`);
        if (typeof args.title === "string") issue.title = args.title;
        if (args.state === "open" || args.state === "closed") issue.state = args.state;
        return issueView(args.owner, args.repo, issue);
      },
    },
    {
      name: "get_me",
      description: "Get details of the authenticated GitHub user.",
      inputSchema: { type: "object", properties: {} },
      outputSchema: {
        type: "object",
        properties: { login: { type: "string" }, name: { type: "string" } },
        required: ["login"],
      },
      annotations: { readOnlyHint: true },
      handler: (_args, { state }) => ({ ...state.user }),
    },
  ],
  checks: {
    issue_exists: (state, args) => {
      const issues = state.repos[`${String(args.owner)}/${String(args.repo)}`] ?? [];
      const matches = issues.filter((issue) => issue.title === args.title);
      return { pass: matches.length > 0, detail: `${matches.length} issue(s) titled ${String(args.title)}` };
    },
  },
};

export interface ChatState {
  channels: { id: string; name: string }[];
  messages: { channel: string; text: string; ts: string }[];
}

export const chatSpec: ServerSpec<ChatState> = {
  name: "slack",
  version: "0.0.1",
  purpose: "A few Slack tools for the agent's tests.",
  createState: () => ({
    channels: [
      { id: "C01GENERAL", name: "general" },
      { id: "C02RANDOM0", name: "random" },
    ],
    messages: [],
  }),
  tools: [
    {
      name: "slack_list_channels",
      description: "List public channels in the workspace.",
      inputSchema: { type: "object", properties: { limit: { type: "number" } } },
      outputSchema: {
        type: "object",
        properties: {
          channels: {
            type: "array",
            items: {
              type: "object",
              properties: { id: { type: "string" }, name: { type: "string" } },
              required: ["id", "name"],
            },
          },
        },
        required: ["channels"],
      },
      annotations: { readOnlyHint: true },
      handler: (_args, { state }) => ({ channels: state.channels.map((channel) => ({ ...channel })) }),
    },
    {
      name: "slack_post_message",
      description: "Post a new message to a Slack channel.",
      inputSchema: {
        type: "object",
        properties: { channel_id: { type: "string" }, text: { type: "string" } },
        required: ["channel_id", "text"],
      },
      outputSchema: {
        type: "object",
        properties: { ok: { type: "boolean" }, channel: { type: "string" }, ts: { type: "string" } },
        required: ["ok", "channel", "ts"],
      },
      annotations: { readOnlyHint: false, destructiveHint: false },
      handler: (args, { state }) => {
        const channel = state.channels.find((candidate) => candidate.id === args.channel_id);
        if (!channel) throw new ToolError("channel_not_found", `no channel with id ${String(args.channel_id)}`);
        const ts = `1700000000.${String(state.messages.length + 1).padStart(6, "0")}`;
        state.messages.push({ channel: channel.id, text: String(args.text), ts });
        return { ok: true, channel: channel.id, ts };
      },
    },
  ],
  checks: {
    message_count: (state, args) => {
      const count = state.messages.filter((message) => !args.channel || message.channel === args.channel).length;
      return { pass: count === args.count, detail: `${count} message(s)` };
    },
  },
};
