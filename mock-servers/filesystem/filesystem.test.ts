import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestServer, specViolations, type TestServer } from "../kit/testing/index.ts";
import { filesystemServer } from "./server.ts";
import type { FilesystemState } from "./tree.ts";

let server: TestServer<FilesystemState>;
beforeAll(async () => {
  server = await openTestServer(filesystemServer);
});
afterAll(async () => {
  await server.close();
});

/** The text of a result, whichever of the reference server's two structuredContent shapes it uses. */
async function text(name: string, args: Record<string, unknown>): Promise<string> {
  const { content } = await server.ok(name, args);
  return typeof content === "string" ? content : (content as { text: string }[])[0]!.text;
}

describe("filesystem server: surface", () => {
  it("follows the kit's shape rules", () => {
    expect(specViolations(filesystemServer)).toEqual([]);
  });

  it("lists the reference server's 14 tools with their parameters and annotations", async () => {
    const { tools } = await server.client.listTools();
    const surface = Object.fromEntries(
      tools.map((tool) => [
        tool.name,
        [Object.keys(tool.inputSchema.properties ?? {}), tool.inputSchema.required ?? []],
      ]),
    );
    expect(surface).toEqual({
      read_file: [["path", "tail", "head"], ["path"]],
      read_text_file: [["path", "tail", "head"], ["path"]],
      read_media_file: [["path"], ["path"]],
      read_multiple_files: [["paths"], ["paths"]],
      write_file: [
        ["path", "content"],
        ["path", "content"],
      ],
      edit_file: [
        ["path", "edits", "dryRun"],
        ["path", "edits"],
      ],
      create_directory: [["path"], ["path"]],
      list_directory: [["path"], ["path"]],
      list_directory_with_sizes: [["path", "sortBy"], ["path"]],
      directory_tree: [["path", "excludePatterns"], ["path"]],
      move_file: [
        ["source", "destination"],
        ["source", "destination"],
      ],
      search_files: [
        ["path", "pattern", "excludePatterns"],
        ["path", "pattern"],
      ],
      get_file_info: [["path"], ["path"]],
      list_allowed_directories: [[], []],
    });
    const writes = tools.filter((tool) => !tool.annotations?.readOnlyHint).map((tool) => tool.name);
    expect(writes).toEqual(["write_file", "edit_file", "create_directory", "move_file"]);
    const destructive = tools.filter((tool) => tool.annotations?.destructiveHint).map((tool) => tool.name);
    expect(destructive).toEqual(["write_file", "edit_file"]);
  });
});

describe("reading files", () => {
  it("read_text_file returns the whole file; read_file is the same reader", async () => {
    const readme = await text("read_text_file", { path: "/workspace/README.md" });
    expect(readme.startsWith("# acme-storefront\n")).toBe(true);
    expect(readme).toContain("Alice Chen (alice@acme.dev)");
    expect(await text("read_file", { path: "/workspace/README.md" })).toBe(readme);
  });

  it("resolves relative paths and in-root '..' segments inside the allowed directories", async () => {
    const direct = await text("read_text_file", { path: "/workspace/notes/todo.md" });
    expect(await text("read_text_file", { path: "notes/todo.md" })).toBe(direct);
    expect(await text("read_text_file", { path: "/workspace/src/../notes/./todo.md" })).toBe(direct);
    expect(await text("read_text_file", { path: "/shared/../workspace//notes/todo.md" })).toBe(direct);
  });

  it("head and tail behave like the reference implementation", async () => {
    expect(await text("read_text_file", { path: "/workspace/src/index.ts", head: 2 })).toBe(
      'import { createServer } from "./server.ts";\nimport { logger } from "./lib/logger.ts";',
    );
    // tailFile splits on "\n": a trailing newline counts as the last (empty) line.
    expect(await text("read_text_file", { path: "/workspace/logs/app.log", tail: 2 })).toBe(
      "2026-03-16T09:12:00Z [warn] rate of 429 responses above 1% in the last 5 minutes\n",
    );
    expect(await server.call("read_text_file", { path: "/workspace/logs/app.log", head: 1, tail: 1 })).toEqual({
      kind: "tool_error",
      text: "invalid_request: Cannot specify both head and tail parameters simultaneously",
    });
  });

  it("reports missing files and directories like Node does", async () => {
    expect(await server.call("read_text_file", { path: "/workspace/missing.md" })).toEqual({
      kind: "tool_error",
      text: "not_found: ENOENT: no such file or directory, open '/workspace/missing.md'",
    });
    expect(await server.call("read_text_file", { path: "/workspace/src" })).toEqual({
      kind: "tool_error",
      text: "is_a_directory: EISDIR: illegal operation on a directory, read",
    });
  });

  it.each([
    ["/workspace/assets/logo.png", "image", "image/png", "89504e47"],
    ["/workspace/assets/spinner.gif", "image", "image/gif", "47494638"],
    ["/shared/media/standup-chime.wav", "audio", "audio/wav", "52494646"],
    ["/workspace/data/config.json", "blob", "application/octet-stream", "7b0a2020"],
  ])("read_media_file %s → %s %s", async (path, type, mimeType, magicHex) => {
    const { content } = await server.ok("read_media_file", { path });
    const [item] = content as { type: string; data: string; mimeType: string }[];
    expect(item).toMatchObject({ type, mimeType });
    expect(Buffer.from(item!.data, "base64").subarray(0, 4).toString("hex")).toBe(magicHex);
  });

  it("read_multiple_files reads each file and reports per-file errors without failing", async () => {
    const combined = await text("read_multiple_files", {
      paths: ["/workspace/.env.example", "/etc/hosts", "/workspace/nope.txt"],
    });
    const [env, hosts, missing] = combined.split("\n---\n");
    expect(env).toBe("/workspace/.env.example:\nACME_API_KEY=acme_test_replace_me\nPORT=3000\nLOG_LEVEL=info\n\n");
    expect(hosts).toBe(
      "/etc/hosts: Error - Access denied - path outside allowed directories: /etc/hosts not in /workspace, /shared",
    );
    expect(missing).toBe("/workspace/nope.txt: Error - ENOENT: no such file or directory, open '/workspace/nope.txt'");
    expect(await server.call("read_multiple_files", { paths: [] })).toMatchObject({ kind: "rpc_error", code: -32602 });
  });
});

describe("listing and searching", () => {
  it("list_directory prefixes entries with [DIR] / [FILE], sorted by name", async () => {
    expect(await text("list_directory", { path: "/workspace/src" })).toBe(
      "[FILE] index.ts\n[DIR] lib\n[DIR] routes\n[FILE] server.ts\n[DIR] utils",
    );
    expect(await text("list_directory", { path: "/workspace/tmp" })).toBe("");
    expect(await server.call("list_directory", { path: "/workspace/README.md" })).toEqual({
      kind: "tool_error",
      text: "not_a_directory: ENOTDIR: not a directory, scandir '/workspace/README.md'",
    });
    expect(await server.call("list_directory", { path: "/workspace/nope" })).toEqual({
      kind: "tool_error",
      text: "not_found: ENOENT: no such file or directory, scandir '/workspace/nope'",
    });
  });

  it("list_directory_with_sizes sorts by name or by size (largest first) and sums up", async () => {
    const byName = await text("list_directory_with_sizes", { path: "/workspace/data" });
    const names = (listing: string) =>
      listing
        .split("\n")
        .filter((line) => line.startsWith("["))
        .map((l) => l.split(/\s+/)[1]);
    expect(names(byName)).toEqual(["config.json", "customers.csv", "orders.csv", "products.json"]);
    const bySize = await text("list_directory_with_sizes", { path: "/workspace/data", sortBy: "size" });
    expect(names(bySize)).toEqual(["customers.csv", "orders.csv", "products.json", "config.json"]);
    expect(byName).toContain("[FILE] config.json                         195 B");
    expect(byName.endsWith("\n\nTotal: 4 files, 0 directories\nCombined size: 1.53 KB")).toBe(true);
  });

  it("directory_tree returns nested JSON and honours excludePatterns", async () => {
    const tree = JSON.parse(await text("directory_tree", { path: "/workspace/src" }));
    expect(tree.map((entry: { name: string }) => entry.name)).toEqual([
      "index.ts",
      "lib",
      "routes",
      "server.ts",
      "utils",
    ]);
    expect(tree[1]).toEqual({
      name: "lib",
      type: "directory",
      children: [
        { name: "db.ts", type: "file" },
        { name: "logger.ts", type: "file" },
      ],
    });
    const withoutLib = JSON.parse(await text("directory_tree", { path: "/workspace/src", excludePatterns: ["lib"] }));
    expect(withoutLib.map((entry: { name: string }) => entry.name)).not.toContain("lib");
    const noTs = JSON.parse(await text("directory_tree", { path: "/workspace/src", excludePatterns: ["**/*.ts"] }));
    expect(noTs).toEqual([
      { name: "lib", type: "directory", children: [] },
      { name: "routes", type: "directory", children: [] },
      { name: "utils", type: "directory", children: [] },
    ]);
  });

  it("search_files uses glob semantics on paths relative to the search root", async () => {
    expect((await text("search_files", { path: "/workspace", pattern: "**/*.ts" })).split("\n")).toEqual([
      "/workspace/src/index.ts",
      "/workspace/src/lib/db.ts",
      "/workspace/src/lib/logger.ts",
      "/workspace/src/routes/orders.ts",
      "/workspace/src/routes/users.ts",
      "/workspace/src/server.ts",
      "/workspace/src/utils/format.ts",
      "/workspace/tests/format.test.ts",
    ]);
    // "*.ts" matches only the top level, as minimatch does: a classic small-model mistake.
    expect(await text("search_files", { path: "/workspace", pattern: "*.ts" })).toBe("No matches found");
    expect(await text("search_files", { path: "/workspace/src", pattern: "*.ts" })).toBe(
      "/workspace/src/index.ts\n/workspace/src/server.ts",
    );
    expect(await text("search_files", { path: "/workspace", pattern: "data/*.{csv,json}" })).toBe(
      "/workspace/data/config.json\n/workspace/data/customers.csv\n/workspace/data/orders.csv\n/workspace/data/products.json",
    );
    expect(await text("search_files", { path: "/workspace", pattern: "**/*.ts", excludePatterns: ["src/**"] })).toBe(
      "/workspace/tests/format.test.ts",
    );
    expect(await text("search_files", { path: "/workspace", pattern: "**/notes" })).toBe("/workspace/notes");
    expect(await text("search_files", { path: "/shared", pattern: "**/*.md" })).toBe(
      "/shared/handbook/holidays-2026.md\n/shared/handbook/onboarding.md\n/shared/templates/weekly-report.md",
    );
  });

  it("get_file_info reports size, times from the fixtures, type and permissions", async () => {
    expect(await text("get_file_info", { path: "/workspace/scripts/deploy.sh" })).toBe(
      [
        "size: 174",
        "created: Mon Jan 12 2026 09:00:00 GMT+0000 (Coordinated Universal Time)",
        "modified: Mon Jan 12 2026 09:00:00 GMT+0000 (Coordinated Universal Time)",
        "accessed: Mon Jan 12 2026 09:00:00 GMT+0000 (Coordinated Universal Time)",
        "isDirectory: false",
        "isFile: true",
        "permissions: 755",
      ].join("\n"),
    );
    const dir = await text("get_file_info", { path: "/shared/team" });
    expect(dir).toContain("isDirectory: true");
    expect(dir).toContain("size: 4096");
    expect(await server.call("get_file_info", { path: "/shared/none" })).toEqual({
      kind: "tool_error",
      text: "not_found: ENOENT: no such file or directory, stat '/shared/none'",
    });
  });

  it("list_allowed_directories names both roots", async () => {
    expect(await text("list_allowed_directories", {})).toBe("Allowed directories:\n/workspace\n/shared");
  });
});

describe("filesystem server: determinism", () => {
  it("two fresh servers hold the same tree", async () => {
    const other = await openTestServer(filesystemServer);
    expect(await other.dump()).toEqual(await server.dump());
    const { roots, nodes } = (await other.dump()) as FilesystemState;
    expect(roots).toEqual(["/workspace", "/shared"]);
    expect(Object.values(nodes).filter((node) => node.type === "file")).toHaveLength(33);
    await other.close();
  });
});
