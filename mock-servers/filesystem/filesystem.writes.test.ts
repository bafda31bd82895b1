import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestServer, type TestServer } from "../kit/testing/index.ts";
import { filesystemServer } from "./server.ts";
import type { FilesystemState } from "./tree.ts";

let server: TestServer<FilesystemState>;
beforeEach(async () => {
  server = await openTestServer(filesystemServer);
});
afterEach(async () => {
  await server.close();
});

const NOW = "Mon Mar 16 2026 09:30:00 GMT+0000 (Coordinated Universal Time)";

async function expectPass(expect_: string, args: Record<string, unknown>, pass: boolean) {
  expect(await server.check(expect_, args)).toMatchObject({ pass });
}

describe("path refusals", () => {
  const escapes = [
    "/workspace/../etc/passwd",
    "/workspace/notes/../../etc/hosts",
    "../../etc/shadow",
    "/shared/../../root/.bashrc",
    "/etc/passwd",
    "/workspacex/secret.txt",
    "~/.ssh/id_rsa",
  ];

  it.each(escapes)("refuses %s for reads, writes, listings and moves", async (path) => {
    const before = await server.dump();
    for (const [tool, args] of [
      ["read_text_file", { path }],
      ["write_file", { path, content: "pwned" }],
      ["list_directory", { path }],
      ["create_directory", { path }],
      ["get_file_info", { path }],
      ["move_file", { source: "/workspace/README.md", destination: path }],
      ["move_file", { source: path, destination: "/workspace/stolen" }],
    ] as const) {
      const outcome = await server.call(tool, args);
      expect(outcome.kind, `${tool} ${path}`).toBe("tool_error");
      expect(outcome.kind === "tool_error" && outcome.text).toMatch(
        /^access_denied: Access denied - path outside allowed directories: \/\S+ not in \/workspace, \/shared$/,
      );
    }
    expect(await server.dump()).toEqual(before);
  });

  it("names the resolved path in the refusal", async () => {
    expect(await server.call("read_text_file", { path: "/workspace/../etc/passwd" })).toEqual({
      kind: "tool_error",
      text: "access_denied: Access denied - path outside allowed directories: /etc/passwd not in /workspace, /shared",
    });
  });

  it("refuses NUL bytes and Windows drive paths", async () => {
    const nul = await server.call("write_file", { path: "/workspace/ok.txt\0/../../etc/passwd", content: "x" });
    expect(nul.kind === "tool_error" && nul.text).toMatch(
      /^access_denied: Access denied - path outside allowed directories: .*NUL bytes/,
    );
    expect(await server.call("read_text_file", { path: "C:\\Users\\alice\\secrets.txt" })).toEqual({
      kind: "tool_error",
      text: "access_denied: Access denied - Windows-style path received on a POSIX host: C:\\Users\\alice\\secrets.txt",
    });
    await expectPass("file_absent", { path: "/workspace/ok.txt" }, true);
  });
});

describe("write_file", () => {
  it("creates a file (checks flip from fail to pass) stamped with the fixed clock", async () => {
    const path = "/workspace/notes/standup-2026-03-16.md";
    await expectPass("file_exists", { path }, false);
    await expectPass("file_absent", { path }, true);
    await expectPass("file_contains", { path, text: "rate limiting" }, false);
    expect(await server.ok("write_file", { path, content: "# Standup\n\n- Bob: rate limiting done\n" })).toEqual({
      content: `Successfully wrote to ${path}`,
    });
    await expectPass("file_exists", { path }, true);
    await expectPass("file_absent", { path }, false);
    await expectPass("file_contains", { path, text: "rate limiting" }, true);
    await expectPass("file_contains", { path, text: "Carol" }, false);
    const info = (await server.ok("get_file_info", { path })).content as string;
    expect(info).toContain(`modified: ${NOW}`);
    expect(info).toContain("permissions: 644");
  });

  it("overwrites in place, keeping permissions; relative paths land in /workspace", async () => {
    await server.ok("write_file", { path: "scripts/deploy.sh", content: "#!/bin/sh\necho deploy\n" });
    await expectPass("file_contains", { path: "/workspace/scripts/deploy.sh", text: "echo deploy" }, true);
    await expectPass("file_contains", { path: "/workspace/scripts/deploy.sh", text: "rsync" }, false);
    expect((await server.ok("get_file_info", { path: "/workspace/scripts/deploy.sh" })).content).toContain(
      "permissions: 755",
    );
  });

  it("refuses a missing parent directory and a directory target", async () => {
    expect(await server.call("write_file", { path: "/workspace/reports/q1.md", content: "x" })).toEqual({
      kind: "tool_error",
      text: "not_found: ENOENT: no such file or directory, open '/workspace/reports/q1.md'",
    });
    expect(await server.call("write_file", { path: "/workspace/src", content: "x" })).toEqual({
      kind: "tool_error",
      text: "is_a_directory: EISDIR: illegal operation on a directory, open '/workspace/src'",
    });
    await expectPass("file_absent", { path: "/workspace/reports/q1.md" }, true);
  });
});

describe("edit_file", () => {
  const todo = "/workspace/notes/todo.md";
  const tickRateLimit = {
    oldText: "- [ ] Add rate limiting to the HTTP server (owner: bob)",
    newText: "- [x] Add rate limiting to the HTTP server (owner: bob)",
  };

  it("dryRun previews a git-style diff without changing the file", async () => {
    const { content } = await server.ok("edit_file", { path: todo, edits: [tickRateLimit], dryRun: true });
    expect(content).toBe(
      [
        "```diff",
        `Index: ${todo}`,
        "===================================================================",
        `--- ${todo}\toriginal`,
        `+++ ${todo}\tmodified`,
        "@@ -1,7 +1,7 @@",
        " # Team todo",
        " ",
        "-- [ ] Add rate limiting to the HTTP server (owner: bob)",
        "+- [x] Add rate limiting to the HTTP server (owner: bob)",
        " - [ ] Migrate webhooks to HMAC SHA-256 signatures (owner: carol)",
        " - [x] Upgrade @acme/sdk to 2.4.0 (owner: alice)",
        " - [ ] Write the Q2 launch checklist (owner: dave)",
        " - [ ] Review the Berlin on-call rota (owner: erin)",
        "```",
        "",
        "",
      ].join("\n"),
    );
    await expectPass("file_contains", { path: todo, text: tickRateLimit.newText }, false);
  });

  it("applies several edits in order, including a whitespace-tolerant match", async () => {
    await expectPass("file_contains", { path: "/workspace/src/server.ts", text: "// Rate limiting: see" }, false);
    await server.ok("edit_file", {
      path: "/workspace/src/server.ts",
      edits: [
        {
          oldText: "// TODO: add rate limiting before the public launch (see notes/todo.md)",
          newText: "// Rate limiting: see src/lib/rate-limit.ts",
        },
        {
          oldText: 'if (url.pathname.startsWith("/users")) return handleUsers(req, res);',
          newText: 'if (url.pathname.startsWith("/customers")) return handleUsers(req, res);',
        },
      ],
    });
    await expectPass("file_contains", { path: "/workspace/src/server.ts", text: "// Rate limiting: see" }, true);
    await expectPass(
      "file_contains",
      { path: "/workspace/src/server.ts", text: '    if (url.pathname.startsWith("/customers"))' },
      true,
    );
  });

  it("fails without touching the file when a text is not found", async () => {
    const before = await server.dump();
    expect(
      await server.call("edit_file", {
        path: todo,
        edits: [tickRateLimit, { oldText: "nothing like this", newText: "x" }],
      }),
    ).toEqual({
      kind: "tool_error",
      text: "no_match: Could not find exact match for edit:\nnothing like this",
    });
    expect(await server.dump()).toEqual(before);
    expect(await server.call("edit_file", { path: todo, edits: [{ newText: "x" }] })).toMatchObject({
      kind: "rpc_error",
      data: { missing: ["edits.0.oldText"] },
    });
  });
});

describe("create_directory", () => {
  it("creates nested directories, succeeds again silently, and refuses files in the way", async () => {
    await expectPass("directory_exists", { path: "/workspace/reports/2026/q1" }, false);
    await server.ok("create_directory", { path: "/workspace/reports/2026/q1" });
    await expectPass("directory_exists", { path: "/workspace/reports/2026/q1" }, true);
    await expectPass("directory_exists", { path: "/workspace/reports" }, true);
    expect(await server.ok("create_directory", { path: "/workspace/reports/2026/q1" })).toEqual({
      content: "Successfully created directory /workspace/reports/2026/q1",
    });
    await server.ok("write_file", { path: "/workspace/reports/2026/q1/summary.md", content: "ok" });
    await expectPass("file_exists", { path: "/workspace/reports/2026/q1/summary.md" }, true);
    expect(await server.call("create_directory", { path: "/workspace/README.md" })).toEqual({
      kind: "tool_error",
      text: "already_exists: EEXIST: file already exists, mkdir '/workspace/README.md'",
    });
    expect(await server.call("create_directory", { path: "/workspace/README.md/sub" })).toEqual({
      kind: "tool_error",
      text: "not_a_directory: ENOTDIR: not a directory, mkdir '/workspace/README.md/sub'",
    });
    await expectPass("directory_exists", { path: "/workspace/README.md" }, false);
  });
});

describe("move_file", () => {
  it("renames a file: the source disappears, the destination appears with the same content", async () => {
    await expectPass("file_exists", { path: "/shared/inbox/todo.md" }, false);
    expect(
      await server.ok("move_file", { source: "/workspace/notes/todo.md", destination: "/shared/inbox/todo.md" }),
    ).toEqual({
      content: [{ type: "text", text: "Successfully moved /workspace/notes/todo.md to /shared/inbox/todo.md" }],
    });
    await expectPass("file_absent", { path: "/workspace/notes/todo.md" }, true);
    await expectPass("file_contains", { path: "/shared/inbox/todo.md", text: "(owner: carol)" }, true);
  });

  it("moves a directory with everything below it", async () => {
    await server.ok("move_file", { source: "/workspace/notes", destination: "/workspace/docs/notes" });
    await expectPass("directory_exists", { path: "/workspace/notes" }, false);
    await expectPass("file_exists", { path: "/workspace/docs/notes/meeting-2026-03-10.md" }, true);
    expect((await server.ok("list_directory", { path: "/workspace/docs/notes" })).content).toBe(
      "[FILE] meeting-2026-03-10.md\n[FILE] roadmap.md\n[FILE] todo.md",
    );
  });

  it("refuses an existing destination, a missing source, a move into itself and moving a root", async () => {
    const before = await server.dump();
    expect(
      await server.call("move_file", { source: "/workspace/README.md", destination: "/workspace/package.json" }),
    ).toEqual({
      kind: "tool_error",
      text: "already_exists: Destination already exists: /workspace/package.json",
    });
    expect(
      await server.call("move_file", { source: "/workspace/gone.txt", destination: "/workspace/here.txt" }),
    ).toEqual({
      kind: "tool_error",
      text: "not_found: ENOENT: no such file or directory, rename '/workspace/gone.txt' -> '/workspace/here.txt'",
    });
    expect(await server.call("move_file", { source: "/workspace/src", destination: "/workspace/src/old" })).toEqual({
      kind: "tool_error",
      text: "invalid_argument: EINVAL: invalid argument, rename '/workspace/src' -> '/workspace/src/old'",
    });
    expect(await server.call("move_file", { source: "/shared", destination: "/workspace/shared" })).toMatchObject({
      kind: "tool_error",
      text: expect.stringContaining("EBUSY"),
    });
    expect(
      await server.call("move_file", { source: "/workspace/README.md", destination: "/workspace/x/README.md" }),
    ).toEqual({
      kind: "tool_error",
      text: "not_found: ENOENT: no such file or directory, rename '/workspace/README.md' -> '/workspace/x/README.md'",
    });
    expect(await server.dump()).toEqual(before);
  });
});

describe("checks on the fixture and reset", () => {
  it("each check passes and fails on the untouched fixture", async () => {
    await expectPass("file_exists", { path: "/shared/team/contacts.csv" }, true);
    await expectPass("file_exists", { path: "/shared/team" }, false);
    await expectPass("directory_exists", { path: "/shared/team" }, true);
    await expectPass("directory_exists", { path: "/shared/team/contacts.csv" }, false);
    await expectPass("file_contains", { path: "/shared/team/contacts.csv", text: "Dave Okafor" }, true);
    await expectPass("file_contains", { path: "/shared/team/contacts.csv", text: "Frank" }, false);
    await expectPass("file_absent", { path: "README.md" }, false);
  });

  it("is deterministic: the same writes give the same tree, and __reset restores the fixture", async () => {
    const other = await openTestServer(filesystemServer);
    const fresh = await other.dump();
    const writes = async (target: TestServer<FilesystemState>) => {
      await target.ok("create_directory", { path: "/workspace/out" });
      await target.ok("write_file", { path: "/workspace/out/a.txt", content: "alpha\n" });
      await target.ok("move_file", { source: "/workspace/out/a.txt", destination: "/workspace/out/b.txt" });
    };
    await writes(server);
    await writes(other);
    expect(await server.dump()).toEqual(await other.dump());
    expect(await server.dump()).not.toEqual(fresh);
    await server.client.callTool({ name: "__reset", arguments: {} });
    expect(await server.dump()).toEqual(fresh);
    await other.close();
  });
});
