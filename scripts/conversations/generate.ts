/**
 * Writes datasets/conversations/conversations.jsonl from the single-turn datasets: each kind built by one
 * rule over real items (datasets/README.md, "Conversations"), every candidate replayed turn by turn
 * against the mock servers, and only those whose gold satisfies every turn's checks kept. Deterministic:
 * the same datasets give the same file. Run: `pnpm exec tsx scripts/conversations/generate.ts`.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { mockServerFactories } from "../../mock-servers/index.ts";
import { loadDataset } from "../../src/bench/dataset/load.ts";
import { replayConversation } from "../../src/bench/dataset/replay.ts";
import type {
  ConversationItem,
  ConversationKind,
  ConversationTurnSpec,
  DatasetItem,
} from "../../src/bench/dataset/types.ts";
import { ClientPool } from "../../src/mcp/pool.ts";
import { loadRegistries } from "../../src/mcp/registry.ts";
import { REPO_ROOT } from "../../src/paths.ts";

const OUT = join(REPO_ROOT, "datasets", "conversations", "conversations.jsonl");
const PER_KIND = 32;

const items = loadDataset().map((loaded) => loaded.item);
const withCalls = items.filter((item) => item.calls.length > 0 && !item.tools && !item.messages);

/** The `owner/repo` an item's query names and every gold call sends, if any. */
function repoOf(item: DatasetItem): string | undefined {
  const first = (value: unknown) => (Array.isArray(value) ? value[0] : value);
  const pairs = item.calls.map((call) => `${first(call.args.owner)}/${first(call.args.repo)}`);
  const repo = pairs[0];
  if (!repo || pairs.some((pair) => pair !== repo) || !item.query.includes(repo)) return undefined;
  return repo;
}

const repoItems = withCalls.filter((item) => repoOf(item) !== undefined);
const byRepo = new Map<string, DatasetItem[]>();
for (const item of repoItems) byRepo.set(repoOf(item)!, [...(byRepo.get(repoOf(item)!) ?? []), item]);
const repos = [...byRepo.keys()].sort();

function turnOf(item: DatasetItem, user = item.query): ConversationTurnSpec {
  return {
    user,
    calls: item.calls,
    order: item.order,
    ...(item.answer ? { answer: item.answer } : {}),
    ...(item.state ? { state: item.state } : {}),
    ...(item.forbidden ? { forbidden: item.forbidden } : {}),
  };
}

function pick<T>(list: readonly T[], index: number): T {
  return list[index % list.length] as T;
}

const REFERENCES = ["that same repo", "the same repository", "that repo"];
const REPLIES = (repo: string) => [
  repo,
  `It's ${repo}.`,
  `${repo}, please`,
  `In ${repo}.`,
  `The ${repo} repo.`,
  `Use ${repo}.`,
  `oh sorry - ${repo}`,
  `That would be ${repo}.`,
  `${repo} is the one.`,
];
const CORRECTIONS = (right: string, wrong: string) => [
  `Sorry, I meant ${right}, not ${wrong}.`,
  `No wait, I meant ${right}.`,
  `Actually it should be ${right}, not ${wrong}. Do that instead.`,
];
const SWITCHES = ["Different topic: ", "Something else now. ", "Unrelated, but ", ""];

function refer(item: DatasetItem, index: number): string {
  return item.query.split(repoOf(item)!).join(pick(REFERENCES, index));
}

function withoutRepo(item: DatasetItem): string | undefined {
  const repo = repoOf(item)!.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const text = item.query
    .replace(
      new RegExp(`\\s*\\b(?:in|on|for|of|from|to|at|under|inside)\\s+(?:the\\s+)?(?:repo(?:sitory)?\\s+)?${repo}`, "i"),
      "",
    )
    .replace(/\s+([?.!,])/g, "$1");
  return text.includes(repoOf(item)!) || text === item.query ? undefined : text;
}

function movedTo(item: DatasetItem, repo: string): DatasetItem {
  const [owner, name] = repo.split("/") as [string, string];
  const from = repoOf(item)!;
  return {
    ...item,
    query: item.query.split(from).join(repo),
    calls: item.calls.map((call) => ({ ...call, args: { ...call.args, owner, repo: name } })),
  };
}

function servers(turnItems: readonly DatasetItem[]): string[] {
  return [...new Set(turnItems.flatMap((item) => item.servers))].sort();
}

/** A conversation without its id, and the item it is built around (one kept conversation per item and kind). */
type Candidate = Omit<ConversationItem, "id"> & { source: string };

function* followUps(): Generator<Candidate> {
  let index = 0;
  for (const repo of repos) {
    const list = byRepo.get(repo)!;
    for (let at = 0; at + 1 < list.length; at++) {
      const [a, b] = [list[at]!, list[at + 1]!];
      const turns = [turnOf(a), turnOf(b, refer(b, index))];
      const c = list[at + 2];
      if (c && index % 2 === 0) turns.push(turnOf(c, refer(c, index + 1)));
      index += 1;
      yield { category: "conversation", kind: "follow_up", servers: servers([a, b]), turns, source: a.id };
    }
  }
}

function* clarifies(): Generator<Candidate> {
  let index = 0;
  for (const repo of repos) {
    for (const item of byRepo.get(repo)!) {
      const asked = withoutRepo(item);
      if (!asked) continue;
      const next = byRepo.get(repo)!.find((other) => other !== item);
      const turn: ConversationTurnSpec = {
        ...turnOf(item, asked),
        ask: { reply: pick(REPLIES(repo), index), missing: ["owner", "repo"] },
      };
      const turns = [turn, ...(next ? [turnOf(next, refer(next, index))] : [])];
      const opener = pick(
        withCalls.filter((other) => !other.servers.includes("github")),
        index * 7,
      );
      index += 1;
      yield {
        category: "conversation",
        kind: "clarify",
        servers: servers(next ? [item, next] : [item, opener]),
        turns: next ? turns : [turnOf(opener), turn],
        source: item.id,
      };
    }
  }
}

function* corrections(): Generator<Candidate> {
  let index = 0;
  for (const repo of repos) {
    const list = byRepo.get(repo)!;
    for (const item of list) {
      // the wrong repository must hold what the call reads: try a few until one replays
      for (const wrong of repos.filter((other) => other !== repo).slice(0, 6)) {
        const moved = movedTo(item, wrong);
        const next = list.find((other) => other !== item);
        const turns: ConversationTurnSpec[] = [
          { user: moved.query, calls: moved.calls, order: moved.order },
          turnOf(item, pick(CORRECTIONS(repo, wrong), index)),
          ...(next ? [turnOf(next, refer(next, index))] : []),
        ];
        index += 1;
        yield { category: "conversation", kind: "correct", servers: servers([item]), turns, source: item.id };
      }
    }
  }
}

/** Items from different servers, one after another (reads, so one turn's writes do not move another's checks). */
const reads = withCalls.filter((item) => !item.tags.includes("write"));

function* switches(): Generator<Candidate> {
  for (let index = 0; index < reads.length; index++) {
    const a = reads[index]!;
    const b = reads.slice(index + 1).find((other) => other.servers.every((server) => !a.servers.includes(server)));
    if (!b) continue;
    const c =
      index % 3 === 0
        ? reads.find((other) => other.servers.every((server) => a.servers.includes(server)) && other !== a)
        : undefined;
    const turns = [turnOf(a), turnOf(b, `${pick(SWITCHES, index)}${b.query}`)];
    if (c) turns.push(turnOf(c, `Back to the first thing: ${c.query}`));
    yield { category: "conversation", kind: "switch", servers: servers(c ? [a, b, c] : [a, b]), turns, source: a.id };
  }
}

function* longs(): Generator<Candidate> {
  for (let index = 0; index < reads.length; index++) {
    const length = 5 + (index % 4);
    const chosen = Array.from({ length }, (_, step) => reads[(index * 11 + step * 37) % reads.length]!);
    if (new Set(chosen.map((item) => item.id)).size < length) continue;
    yield {
      category: "conversation",
      kind: "long",
      servers: servers(chosen),
      turns: chosen.map((item) => turnOf(item)),
      source: `${chosen[0]!.id}+${index}`,
    };
  }
}

const PREFIX: Record<ConversationKind, string> = {
  follow_up: "cv-fu",
  clarify: "cv-cl",
  correct: "cv-co",
  switch: "cv-sw",
  long: "cv-lo",
};

async function main(): Promise<void> {
  const pool = await ClientPool.open(loadRegistries(), { transport: "memory", mocks: mockServerFactories });
  const kept: ConversationItem[] = [];
  /** A user text is one gold: the simulator finds a turn by its text. */
  const goldOfText = new Map<string, string>();
  const dropped: Record<string, number> = {};
  try {
    for (const [kind, candidates] of [
      ["follow_up", followUps()],
      ["clarify", clarifies()],
      ["correct", corrections()],
      ["switch", switches()],
      ["long", longs()],
    ] as const) {
      let count = 0;
      const sources = new Set<string>();
      for (const { source, ...candidate } of candidates) {
        if (count >= PER_KIND) break;
        if (sources.has(source)) continue;
        const conversation: ConversationItem = {
          id: `${PREFIX[kind]}-${String(count + 1).padStart(3, "0")}`,
          ...candidate,
        };
        const texts = conversation.turns.flatMap((turn) => [
          [turn.user, JSON.stringify(turn)] as const,
          ...(turn.ask ? [[turn.ask.reply, JSON.stringify(turn)] as const] : []),
        ]);
        if (texts.some(([text, gold]) => (goldOfText.get(text) ?? gold) !== gold)) {
          dropped[kind] = (dropped[kind] ?? 0) + 1;
          continue;
        }
        const replay = await replayConversation({ conversation, file: OUT, line: 0 }, pool);
        if (replay.reasons.length > 0 || replay.skip) {
          dropped[kind] = (dropped[kind] ?? 0) + 1;
          continue;
        }
        for (const [text, gold] of texts) goldOfText.set(text, gold);
        sources.add(source);
        kept.push(conversation);
        count += 1;
      }
    }
  } finally {
    await pool.close();
  }
  writeFileSync(OUT, kept.map((conversation) => `${JSON.stringify(conversation)}\n`).join(""));
  const counts = Object.fromEntries(
    Object.keys(PREFIX).map((kind) => [kind, kept.filter((c) => c.kind === kind).length]),
  );
  process.stdout.write(
    `wrote ${kept.length} conversations to ${OUT}: ${JSON.stringify(counts)}; dropped ${JSON.stringify(dropped)}\n`,
  );
}

await main();
