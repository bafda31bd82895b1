/**
 * Export fuzzing: model names and registry values full of shell metacharacters, quotes, `$`, and line
 * breaks, through every file the export formats write (agent.yaml / agent.json, compose.yaml of both
 * engines, the docker README). The Ollama entrypoint is run by a real `sh` (compose's `$$` read back as
 * `$`) against a stub `ollama`: nothing injected runs, and `ollama pull` gets the name as one argument.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type AgentFile, formatAgentFile } from "../config/agent-file.ts";
import { seededRandom } from "../random.ts";
import { composeFile, dockerReadme } from "./docker.ts";

const HOSTILE = [
  "qwen2.5:3b; touch $MARK #",
  "qwen2.5:3b' ; touch \"$MARK\" ; echo '",
  "$(touch $MARK)",
  "`touch $MARK`",
  "a && touch $MARK",
  "a | touch $MARK",
  "a\ntouch $MARK",
  "a\nmodel: injected",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, meant literally
  "${MARK}",
  "a'\"\\$`!*?~#&;<>(){}[]",
];
const ALPHABET = "ab:.$'\"`;&|<>()\\{}\n\t #*?!~-";

/** Seeded random names over the metacharacters, besides the hand-made ones. */
function names(): string[] {
  const random = seededRandom(33);
  const made = Array.from({ length: 60 }, () =>
    Array.from({ length: 1 + Math.floor(random() * 16) }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]).join(
      "",
    ),
  );
  return [...HOSTILE, ...made].filter((name) => name.trim() !== "");
}

function agentNamed(name: string): AgentFile {
  return {
    model: { name, provider: "ollama", model: name, options: {}, source: "fuzz" },
    config: "onsetlab",
    servers: [{ name: "s", purpose: "p", transport: "stdio", command: "node", args: [name, `--label=${name}`] }],
    provenance: { project: "onsetlab-bench", version: "0.1.0" },
  } as unknown as AgentFile;
}

/** compose reads `$$` as `$`: the value the container sees. */
const composed = (value: string) => value.replaceAll("$$", "$");

describe("export fuzzing", () => {
  const work = mkdtempSync(join(tmpdir(), "onsetlab-export-fuzz-"));
  const stubs = join(work, "bin");
  const pulled = join(work, "pulled");
  const mark = join(work, "injected");
  // the stub ollama: `pull` writes its arguments, NUL-separated; every other command succeeds
  spawnSync("mkdir", ["-p", stubs]);
  writeFileSync(
    join(stubs, "ollama"),
    `#!/bin/sh\nif [ "$1" = pull ]; then shift; printf '%s\\0' "$@" > "$PULLED"; fi\n`,
  );
  chmodSync(join(stubs, "ollama"), 0o755);

  it.each(names().map((name) => [JSON.stringify(name), name]))(
    "%s: nothing runs, nothing is unquoted",
    (_shown, name) => {
      const agent = agentNamed(name);
      const compose = parse(composeFile(agent, "ollama")) as {
        services: { ollama: { entrypoint: string[]; healthcheck: { test: string[] } } };
      };
      const [shell, flag, script] = compose.services.ollama.entrypoint.map(composed);
      expect([shell, flag]).toEqual(["/bin/sh", "-c"]);
      rmSync(pulled, { force: true });
      const run = spawnSync("/bin/sh", ["-c", script!], {
        env: { PATH: `${stubs}:/usr/bin:/bin`, MARK: mark, PULLED: pulled },
        encoding: "utf8",
        timeout: 10_000,
      });
      expect(run.status, run.stderr).toBe(0);
      expect(existsSync(mark), "an injected command ran").toBe(false);
      expect(readFileSync(pulled, "utf8")).toBe(`${name}\0`);
      expect(compose.services.ollama.healthcheck.test.map(composed)).toEqual(["CMD", "ollama", "show", name]);

      const vllm = parse(composeFile({ ...agent, model: { ...agent.model, model: name } }, "vllm")) as {
        services: { vllm: { command: string[] } };
      };
      expect(vllm.services.vllm.command.map(composed)[1]).toBe(name);

      for (const as of ["yaml", "json"] as const) {
        const text = formatAgentFile(agent, as);
        const read = (as === "yaml" ? parse(text) : JSON.parse(text)) as AgentFile;
        expect(read).toEqual(JSON.parse(JSON.stringify(agent)));
        if (as === "yaml")
          expect(
            text
              .split("\n")
              .slice(0, 4)
              .every((line) => line.startsWith("#")),
          ).toBe(true);
      }
      const readme = dockerReadme(agent, "ollama", "a query").split("\n");
      expect(readme[0]).toMatch(/^# OnsetLab agent: /);
      expect(readme[1]).toBe("");
    },
  );
});
