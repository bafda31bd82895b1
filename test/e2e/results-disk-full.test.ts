/**
 * A full results disk (ENOSPC) or an I/O error (EIO), injected into node:fs: every path ends with one
 * line naming the file, the cause and `--resume RUN_ID`, leaves no `.tmp` behind, and the resume finishes
 * the run. The appender's timed flush fails without an uncaught exception (it used to throw in a timer).
 */
import type * as fs from "node:fs";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runBench } from "../../src/bench/run/bench.ts";
import { JsonlGzAppender, RUN_FILES, RunWriteError } from "../../src/bench/run/store.ts";
import { reportError } from "../../src/cli/exit.ts";
import { benchRequest, strictRecordLines } from "../support/bench-run.ts";

/** The file whose writes fail, and with which errno; file descriptors are followed from their open. */
const fault: { file?: string; code?: "ENOSPC" | "EIO" } = {};
const fdFiles = new Map<number, string>();

vi.mock("node:fs", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs")>();
  const refuse = (target: unknown) => {
    const file = typeof target === "number" ? fdFiles.get(target) : String(target);
    if (fault.file && fault.code && file?.startsWith(fault.file)) {
      throw Object.assign(new Error(`${fault.code}: injected, write '${file}'`), { code: fault.code });
    }
  };
  const mocked = {
    ...real,
    openSync: (...args: Parameters<typeof real.openSync>) => {
      const fd = real.openSync(...args);
      fdFiles.set(fd, String(args[0]));
      return fd;
    },
    writeSync: (fd: number, ...rest: unknown[]) => {
      refuse(fd);
      return (real.writeSync as (...a: unknown[]) => number)(fd, ...rest);
    },
    writeFileSync: (file: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
      refuse(file);
      return (real.writeFileSync as (...a: unknown[]) => void)(file, ...rest);
    },
  };
  return { ...mocked, default: mocked };
});

afterEach(() => {
  fault.file = undefined;
  fault.code = undefined;
  vi.useRealTimers();
});

const request = benchRequest({ configs: ["native"], matrix: undefined, first: 3 });

function leftovers(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith(".tmp"));
}

/** The run's id, its folder, and the line the CLI prints for the error it failed with. */
async function failedRun(file: string, code: "ENOSPC" | "EIO") {
  const resultsRoot = mkdtempSync(join(tmpdir(), "disk-full-"));
  let started: { runId: string; dir: string } | undefined;
  let line = "";
  await runBench({
    request,
    resultsRoot,
    onStarted: (runId, dir) => {
      started = { runId, dir };
      fault.file = join(dir, file);
      fault.code = code;
    },
  }).then(
    () => expect.unreachable("the run should fail"),
    (error: unknown) => {
      expect(error).toBeInstanceOf(RunWriteError);
      reportError(error, (text) => {
        line += text;
      });
    },
  );
  fault.file = undefined;
  return { ...started!, resultsRoot, line };
}

describe("a full results disk", () => {
  it.each([
    [RUN_FILES.records, "ENOSPC"],
    [RUN_FILES.traces, "EIO"],
    [RUN_FILES.summary, "ENOSPC"],
    [RUN_FILES.run, "EIO"],
  ] as const)(
    "failing %s with %s: one line with the file, the cause and --resume; no .tmp; the resume finishes",
    async (file, code) => {
      const { runId, dir, resultsRoot, line } = await failedRun(file, code);
      expect(line).toBe(
        `error: cannot write ${join(dir, file)}: ${code}: injected, write '${join(dir, file)}${file.endsWith(".json") ? `.${process.pid}.tmp` : ""}'; free space and continue with: pnpm bench --resume ${runId}\n`,
      );
      expect(leftovers(dir)).toEqual([]);
      const resumed = await runBench({ request, resume: runId, resultsRoot });
      expect(resumed.runId).toBe(runId);
      expect(resumed.manifest.finishedAt).toBeDefined();
      expect(strictRecordLines(dir)).toHaveLength(resumed.manifest.tasks);
    },
  );

  it("a timed flush that fails throws nothing from its timer: the next append, or the close, says it", () => {
    vi.useFakeTimers();
    const dir = mkdtempSync(join(tmpdir(), "disk-full-appender-"));
    const file = join(dir, "records.jsonl.gz");
    const appender = new JsonlGzAppender(file, { rows: 64, delayMs: 1000 });
    appender.append({ a: 1 });
    fault.file = file;
    fault.code = "ENOSPC";
    expect(() => vi.advanceTimersByTime(1000)).not.toThrow();
    expect(() => appender.append({ a: 2 })).toThrow(`cannot write ${file}: ENOSPC`);
    expect(() => appender.close()).toThrow(RunWriteError);
  });
});
