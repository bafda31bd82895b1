/**
 * Gold items for the simulator's tests, one or more per category, over the tools of the agent's test
 * servers (mock-servers/kit/sample-servers.ts: a GitHub-like and a Slack-like one) and its sample tool
 * definitions. The expected strings are in those servers' fixture data.
 */

import type { SimGoldItem } from "../gold.ts";

export const TEST_ITEMS: readonly SimGoldItem[] = [
  {
    id: "sim-single",
    query: "List the open issues in acme/webapp",
    category: "single",
    route: "rewoo",
    servers: ["github"],
    calls: [{ tool: "list_issues", args: { owner: "acme", repo: "webapp", state: ["OPEN", ""] } }],
    order: "any",
    answer: { contains: ["Login fails"] },
  },
  {
    id: "sim-write",
    query: 'Create an issue titled "Crash on save" in acme/webapp',
    category: "single",
    route: "rewoo",
    servers: ["github"],
    calls: [{ tool: "issue_write", args: { method: "create", owner: "acme", repo: "webapp", title: "Crash on save" } }],
    order: "any",
    answer: { contains: ["Crash on save"] },
  },
  {
    id: "sim-read",
    query: "Show issue 2 of acme/webapp",
    category: "single",
    route: "rewoo",
    servers: ["github"],
    calls: [{ tool: "issue_read", args: { method: "get", owner: "acme", repo: "webapp", issue_number: [2, "2"] } }],
    order: "any",
    answer: { contains: ["Dark mode"], regex: "\\bclosed\\b" },
  },
  {
    id: "sim-sequence",
    query: "Get my GitHub user, then post my login to the general channel",
    category: "sequence",
    route: "rewoo",
    servers: ["github", "slack"],
    calls: [
      { tool: "get_me", args: {} },
      { tool: "slack_post_message", args: { channel_id: "C01GENERAL", text: ["octo-dev", { regex: "octo-dev" }] } },
    ],
    order: "sequence",
    answer: { contains: ["octo-dev"] },
  },
  {
    id: "sim-parallel",
    query: "List the open issues in acme/webapp and list the Slack channels",
    category: "parallel",
    route: "rewoo",
    servers: ["github", "slack"],
    calls: [
      { tool: "list_issues", args: { owner: "acme", repo: "webapp", state: "OPEN" } },
      { tool: "slack_list_channels", args: {} },
    ],
    order: "any",
    answer: { contains: ["Login fails", "general"] },
  },
  {
    id: "sim-exploratory",
    query: "Search the issues of acme/webapp for the one about dark mode",
    category: "exploratory",
    route: "react",
    servers: ["github"],
    calls: [{ tool: "list_issues", args: { owner: "acme", repo: "webapp", state: ["", { any: true }] } }],
    order: "any",
    answer: { contains: ["Dark mode"] },
  },
  {
    id: "sim-direct",
    query: "What is a pull request?",
    category: "direct",
    route: "direct",
    servers: ["github"],
    calls: [],
    order: "any",
    answer: { anyOf: ["proposed change", "merge"] },
  },
  {
    id: "sim-irrelevant",
    query: "Book a flight to Paris for tomorrow",
    category: "irrelevant",
    route: "direct",
    servers: ["github", "slack"],
    calls: [],
    order: "any",
    answer: { regex: "(can't|cannot|unable)" },
  },
  {
    id: "sim-missing",
    query: "Create an issue in acme/webapp",
    category: "missing_info",
    route: "direct",
    servers: ["github"],
    calls: [],
    order: "any",
    missing: ["title"],
    forbidden: ["issue_write"],
    answer: { contains: ["title"], notContains: ["created"] },
  },
  {
    id: "sim-sequence-reads",
    query: "Get my GitHub user, then list the closed issues in acme/webapp",
    category: "sequence",
    route: "rewoo",
    servers: ["github"],
    calls: [
      { tool: "get_me", args: {} },
      { tool: "list_issues", args: { owner: "acme", repo: "webapp", state: "CLOSED" } },
    ],
    order: "sequence",
    answer: { contains: ["octo-dev", "Dark mode"] },
  },
  {
    id: "sim-parallel-same-tool",
    query: "Show issues 1 and 2 of acme/webapp",
    category: "parallel",
    route: "rewoo",
    servers: ["github"],
    calls: [
      { tool: "issue_read", args: { method: "get", owner: "acme", repo: "webapp", issue_number: 1 } },
      { tool: "issue_read", args: { method: "get", owner: "acme", repo: "webapp", issue_number: 2 } },
    ],
    order: "any",
    answer: { contains: ["Login fails", "Dark mode"] },
  },
  {
    id: "sim-exploratory-slack",
    query: "Find the Slack channel for random chatter",
    category: "exploratory",
    route: "react",
    servers: ["slack"],
    calls: [{ tool: "slack_list_channels", args: {} }],
    order: "any",
    answer: { contains: ["random"] },
  },
  {
    id: "sim-direct-thanks",
    query: "Thanks!",
    category: "direct",
    route: "direct",
    servers: ["github", "slack"],
    calls: [],
    order: "any",
    answer: { anyOf: ["welcome"] },
  },
  {
    id: "sim-irrelevant-pizza",
    query: "Order a pizza with extra cheese",
    category: "irrelevant",
    route: "direct",
    servers: ["github", "slack"],
    calls: [],
    order: "any",
    answer: { regex: "(can't|cannot|unable)" },
  },
  {
    id: "sim-missing-slack",
    query: "Post a message to Slack",
    category: "missing_info",
    route: "direct",
    servers: ["slack"],
    calls: [],
    order: "any",
    missing: ["channel_id", "text"],
    forbidden: ["slack_post_message"],
    answer: { contains: ["channel"] },
  },
];

export function testItem(id: string): SimGoldItem {
  const item = TEST_ITEMS.find((candidate) => candidate.id === id);
  if (!item) throw new Error(`no test item ${id}`);
  return item;
}

/** The answer check as the bench applies it: case-insensitive contains / anyOf / regex / notContains. */
export function passesAnswerCheck(item: SimGoldItem, answer: string): boolean {
  const check = item.answer ?? {};
  const text = answer.toLowerCase();
  return (
    (check.contains ?? []).every((part) => text.includes(part.toLowerCase())) &&
    (check.anyOf === undefined || check.anyOf.some((part) => text.includes(part.toLowerCase()))) &&
    (check.regex === undefined || new RegExp(check.regex, "i").test(answer)) &&
    !(check.notContains ?? []).some((part) => text.includes(part.toLowerCase()))
  );
}
