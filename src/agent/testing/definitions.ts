/** ToolDefinitions for unit tests: the names, parameters and annotations of the real servers, no server behind them. */

import type { JsonSchema, ToolAnnotationsInfo, ToolDefinition } from "../../tool-protocol/types.ts";

export function defineTool(
  server: string,
  name: string,
  description: string,
  properties: Record<string, JsonSchema>,
  required: string[] = [],
  annotations: ToolAnnotationsInfo = { readOnlyHint: true },
): ToolDefinition {
  return { server, name, description, inputSchema: { type: "object", properties, required }, annotations };
}

const str = { type: "string" };
const num = { type: "number" };
const write = { readOnlyHint: false, destructiveHint: false };

export const SAMPLE_TOOLS: readonly ToolDefinition[] = [
  defineTool(
    "github",
    "list_issues",
    "List issues in a GitHub repository.",
    {
      owner: str,
      repo: str,
      state: { type: "string", enum: ["OPEN", "CLOSED"] },
    },
    ["owner", "repo"],
  ),
  defineTool(
    "github",
    "issue_write",
    "Create a new or update an existing issue in a GitHub repository.",
    {
      method: { type: "string", enum: ["create", "update"] },
      owner: str,
      repo: str,
      title: str,
      body: str,
      issue_number: num,
    },
    ["method", "owner", "repo"],
    write,
  ),
  defineTool(
    "github",
    "issue_read",
    "Get information about a specific issue in a GitHub repository.",
    {
      method: { type: "string", enum: ["get", "get_comments", "get_labels"] },
      owner: str,
      repo: str,
      issue_number: num,
    },
    ["method", "owner", "repo", "issue_number"],
  ),
  defineTool("github", "list_pull_requests", "List pull requests in a GitHub repository.", { owner: str, repo: str }, [
    "owner",
    "repo",
  ]),
  defineTool(
    "github",
    "merge_pull_request",
    "Merge a pull request in a GitHub repository.",
    { owner: str, repo: str, pullNumber: num },
    ["owner", "repo", "pullNumber"],
    { readOnlyHint: false, destructiveHint: true },
  ),
  defineTool("github", "get_me", "Get details of the authenticated GitHub user.", {}),
  defineTool("slack", "slack_list_channels", "List public channels in the workspace.", { limit: num }),
  defineTool(
    "slack",
    "slack_post_message",
    "Post a new message to a Slack channel.",
    { channel_id: str, text: str },
    ["channel_id", "text"],
    write,
  ),
  defineTool("notion", "API-post-search", "Search pages and data sources by title.", { query: str }),
  defineTool("search", "tavily_search", "Search the web for current information.", { query: str }, ["query"]),
  defineTool(
    "calendar",
    "create-event",
    "Create a calendar event.",
    { calendarId: str, summary: str, start: str, end: str },
    ["calendarId", "summary", "start", "end"],
    write,
  ),
  defineTool("filesystem", "read_text_file", "Read a text file from the allowed directories.", { path: str }, ["path"]),
];

export function sampleTool(name: string): ToolDefinition {
  const tool = SAMPLE_TOOLS.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no sample tool ${name}`);
  return tool;
}
