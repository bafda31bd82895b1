/**
 * `scaffold server NAME`: a new mock MCP server under mock-servers/NAME/ (its spec, a fixture, one tool with
 * input and output schemas, its test, its stdio entry) from the templates beside this file, plus its entry
 * in mock-servers/registry.json and in mock-servers/index.ts, the list every mock server is enumerated from.
 * It writes nowhere else: a bad name, an existing folder or a path leaving mock-servers/ is refused.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import type { Command } from "commander";
import { registryEntryFor, registryFileText } from "../../mock-servers/registry-entries.ts";
import { InputError } from "../errors.ts";
import { REPO_ROOT } from "../paths.ts";

/** A scaffold that must not be written: one line, exit 2. */
export class ScaffoldError extends InputError {}

const TEMPLATES = join(REPO_ROOT, "src", "cli", "scaffold-templates", "mock-server");
const NAME = /^[a-z][a-z0-9-]{0,29}$/;
const PURPOSE = "A scaffolded mock server: looks up records by key from its fixture.";

export interface ScaffoldResult {
  dir: string;
  files: string[];
}

/** Writes the server's files and its two registrations under `root` (the repository; a copy in tests). */
export function scaffoldServer(name: string, root: string = REPO_ROOT): ScaffoldResult {
  const serversDir = resolve(root, "mock-servers");
  if (!NAME.test(name)) {
    throw new ScaffoldError(
      "SCAFFOLD_BAD_NAME",
      `scaffold server "${name}": a name is lowercase letters, digits and dashes, starting with a letter (e.g. weather)`,
    );
  }
  const dir = resolve(serversDir, name);
  const inside = relative(serversDir, dir);
  if (inside === "" || inside.startsWith("..") || inside.includes(sep)) {
    throw new ScaffoldError("SCAFFOLD_OUTSIDE", `scaffold server "${name}": ${dir} is not a folder of ${serversDir}`);
  }
  if (existsSync(dir)) throw new ScaffoldError("SCAFFOLD_EXISTS", `scaffold server "${name}": ${dir} exists already`);
  const registryFile = join(serversDir, "registry.json");
  const indexFile = join(serversDir, "index.ts");
  const registry = JSON.parse(readFileSync(registryFile, "utf8")) as { servers: { name: string }[] };
  if (registry.servers.some((entry) => entry.name === name)) {
    throw new ScaffoldError("SCAFFOLD_EXISTS", `scaffold server "${name}": ${registryFile} has a server of that name`);
  }
  const words = name.split("-").filter(Boolean);
  const pascal = words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join("");
  const names = {
    name,
    camel: pascal[0]!.toLowerCase() + pascal.slice(1),
    Pascal: pascal,
    tool: `${words.join("_")}_lookup`,
    purpose: PURPOSE,
  };
  const render = (text: string) =>
    text.replace(/\{\{(name|camel|Pascal|tool|purpose)\}\}/g, (_, key: keyof typeof names) => names[key]);

  // everything is computed before anything is written: a failure leaves the tree as it was
  const files = templateFiles(TEMPLATES).map((template) => {
    const target = relative(TEMPLATES, template)
      .replace(/\.tmpl$/, "")
      .replace(/^test\.ts$/, `${name}.test.ts`);
    return { path: join(dir, target), text: render(readFileSync(template, "utf8")) };
  });
  const index = registerInIndex(readFileSync(indexFile, "utf8"), names.camel, name, indexFile);
  // the entry scripts/gen-registry.ts would write from the new spec
  const entry = registryEntryFor({
    name,
    version: "0.1.0",
    purpose: PURPOSE,
    createState: () => ({}),
    tools: [{ name: names.tool } as Parameters<typeof registryEntryFor>[0]["tools"][number]],
    checks: {},
  });

  for (const file of files) {
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.text);
  }
  writeFileSync(indexFile, index);
  writeFileSync(registryFile, registryFileText({ ...registry, servers: [...registry.servers, entry] }));
  return { dir, files: files.map((file) => file.path) };
}

function templateFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? templateFiles(path) : [path];
    });
}

/** mock-servers/index.ts with the new spec imported (imports stay sorted) and appended to the server list. */
function registerInIndex(source: string, camel: string, name: string, file: string): string {
  const listEnd = source.indexOf("\n  ].map((spec) => [spec.name, spec as ServerSpec<unknown>]),");
  if (listEnd < 0) throw new ScaffoldError("SCAFFOLD_INDEX", `${file}: the list of server specs was not found`);
  const listed = `${source.slice(0, listEnd)}\n    ${camel}Server,${source.slice(listEnd)}`;
  const line = `import { ${camel}Server } from "./${name}/server.ts";`;
  const lines = listed.split("\n");
  const imports = lines.flatMap((text, at) => (/^import .* from "\.\/[^"]+";$/.test(text) ? [at] : []));
  const path = (text: string) => /from "([^"]+)"/.exec(text)![1]!;
  const before = imports.find((at) => path(lines[at]!) > `./${name}/server.ts`);
  lines.splice(before ?? imports[imports.length - 1]! + 1, 0, line);
  return lines.join("\n");
}

export function registerScaffoldCommands(program: Command): void {
  const scaffold = program.command("scaffold").description("write the skeleton of a new part");
  scaffold
    .command("server")
    .description(
      "a new mock MCP server under mock-servers/NAME/ (spec, fixture, one tool, its test, its registry entry)",
    )
    .argument("<name>", "the server's registry name: lowercase letters, digits and dashes")
    .action((name: string) => {
      const { dir, files } = scaffoldServer(name);
      process.stdout.write(
        `wrote ${files.length} files to ${relative(process.cwd(), dir) || dir}, and its entries in mock-servers/registry.json and mock-servers/index.ts\n` +
          `next: pnpm exec vitest run mock-servers/${name}; pnpm mock list\n`,
      );
    });
}
