/**
 * Runs untrusted JavaScript in QuickJS compiled to WebAssembly (quickjs-emscripten). The guest gets a bare
 * ECMAScript realm: no require/import, process, fs, network or host objects — only a `console` whose output we
 * capture. Each run has a fresh runtime with a wall-clock deadline (interrupt handler), a memory limit and a
 * stack limit. Math.random and Date are replaced with seeded / fixed-clock versions so runs are reproducible.
 */
import {
  newQuickJSWASMModule,
  newVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSWASMModule,
  RELEASE_SYNC,
} from "quickjs-emscripten";

export interface SandboxOptions {
  timeoutMs: number;
  /** The guest's `Date.now()` / `new Date()`. */
  now: Date;
  memoryLimitBytes?: number;
}

export interface SandboxRun {
  stdout: string;
  /** Value of the last expression (JSON); null when it was undefined. */
  result: unknown;
  error?: string;
  timedOut: boolean;
}

export const SANDBOX_MEMORY_LIMIT_BYTES = 32 * 1024 * 1024;
/**
 * QuickJS's own limit is not enforced for every allocation in this build (it has no malloc_usable_size): a
 * guest filling arrays grew the wasm heap to 1.6 GB. The wasm memory itself is capped, so malloc fails and
 * the guest gets "out of memory" (64 KB pages: 16 MB at start, 96 MB at most).
 */
const WASM_MEMORY = { initial: 256, maximum: 1536 } as const;

/** The WebAssembly global as a value (this project's TypeScript lib has only its types). */
const wasm = (
  globalThis as unknown as {
    WebAssembly: {
      Memory: new (descriptor: { initial: number; maximum: number }) => Parameters<typeof newVariant>[1]["wasmMemory"];
    };
  }
).WebAssembly;
/** QuickJS's own stack limit; kept well below the host's so deep recursion is a guest error, not a host crash. */
const STACK_LIMIT_BYTES = 256 * 1024;
const MAX_STDOUT_CHARS = 16_000;
const MAX_RESULT_CHARS = 16_000;
const GUEST_RANDOM_SEED = 42;

let quickJS: Promise<QuickJSWASMModule> | undefined;

/** The wasm module is loaded once per process (the sandbox worker); runtimes and contexts are created per run. */
function loadQuickJS(): Promise<QuickJSWASMModule> {
  quickJS ??= newQuickJSWASMModule(newVariant(RELEASE_SYNC, { wasmMemory: new wasm.Memory(WASM_MEMORY) }));
  return quickJS;
}

/** Bytes of wasm memory the module holds now (it never shrinks: the worker is replaced when it grew large). */
export async function sandboxMemoryBytes(): Promise<number> {
  return (await loadQuickJS()).getWasmMemory().buffer.byteLength;
}

/** Installs console (writing through the captured host print), seeded Math.random and a fixed-clock Date. */
function prelude(nowMs: number): string {
  return `(() => {
  const print = globalThis.__hostPrint;
  delete globalThis.__hostPrint;
  const show = (value) => {
    if (typeof value === "string") return value;
    if (typeof value === "function") return "[Function" + (value.name ? ": " + value.name : "") + "]";
    if (typeof value === "object" && value !== null) {
      if (value instanceof Error) return String(value);
      try { return JSON.stringify(value); } catch { return String(value); }
    }
    return String(value);
  };
  const write = (...args) => print(args.map(show).join(" "));
  globalThis.console = Object.freeze({ log: write, info: write, warn: write, error: write, debug: write });
  let state = ${GUEST_RANDOM_SEED} >>> 0;
  Math.random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const RealDate = Date;
  const NOW = ${nowMs};
  class FixedDate extends RealDate {
    constructor(...args) { if (args.length === 0) super(NOW); else super(...args); }
    static now() { return NOW; }
  }
  globalThis.Date = FixedDate;
})();`;
}

class OutputBuffer {
  private text = "";
  private truncated = false;

  append(line: string): void {
    if (this.truncated) return;
    const next = this.text + line + "\n";
    if (next.length > MAX_STDOUT_CHARS) {
      this.text = `${next.slice(0, MAX_STDOUT_CHARS)}\n… [output truncated at ${MAX_STDOUT_CHARS} characters]\n`;
      this.truncated = true;
    } else {
      this.text = next;
    }
  }

  toString(): string {
    return this.text;
  }
}

/** A guest error as "Name: message", without the guest stack (it can be thousands of frames). */
function describeGuestError(context: QuickJSContext, handle: QuickJSHandle): string {
  const dumped = context.dump(handle) as unknown;
  if (dumped && typeof dumped === "object" && "message" in dumped) {
    const { name, message } = dumped as { name?: string; message?: string };
    if (message === "out of memory") {
      return `RangeError: memory limit exceeded (${SANDBOX_MEMORY_LIMIT_BYTES / 1024 / 1024} MB)`;
    }
    return `${name ?? "Error"}: ${message ?? ""}`;
  }
  return `Uncaught ${JSON.stringify(dumped) ?? String(dumped)}`;
}

/** The guest value as JSON for the result (functions, symbols, bigints and non-finite numbers as strings). */
function guestValue(context: QuickJSContext, handle: QuickJSHandle): unknown {
  const type = context.typeof(handle);
  if (type === "undefined") return null;
  if (type === "function") return "[Function]";
  if (type === "symbol" || type === "bigint") return String(context.dump(handle));
  const value = context.dump(handle) as unknown;
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  const serialized = JSON.stringify(value);
  if (serialized !== undefined && serialized.length > MAX_RESULT_CHARS) {
    return `${serialized.slice(0, MAX_RESULT_CHARS)}… [result truncated]`;
  }
  return value;
}

/** Settles a returned promise (guest async code) and reads the value or the rejection. */
function settle(context: QuickJSContext, handle: QuickJSHandle): { result: unknown; error?: string } {
  context.runtime.executePendingJobs();
  const state = context.getPromiseState(handle);
  if (state.type === "rejected") {
    const error = describeGuestError(context, state.error);
    state.error.dispose();
    return { result: null, error };
  }
  if (state.type === "pending") return { result: null, error: "Error: the returned promise never settled" };
  if (state.notAPromise) return { result: guestValue(context, handle) };
  const result = guestValue(context, state.value);
  state.value.dispose();
  return { result };
}

export async function runInSandbox(code: string, options: SandboxOptions): Promise<SandboxRun> {
  const module = await loadQuickJS();
  const runtime = module.newRuntime();
  const output = new OutputBuffer();
  let timedOut = false;
  try {
    runtime.setMemoryLimit(options.memoryLimitBytes ?? SANDBOX_MEMORY_LIMIT_BYTES);
    runtime.setMaxStackSize(STACK_LIMIT_BYTES);
    const context = runtime.newContext();
    try {
      const print = context.newFunction("print", (text) => {
        output.append(context.getString(text));
      });
      context.setProp(context.global, "__hostPrint", print);
      print.dispose();
      context.unwrapResult(context.evalCode(prelude(options.now.getTime()), "prelude.js")).dispose();
      // the guest's time starts here: the prelude on a fresh worker (cold wasm) can take longer than a short limit
      const deadline = performance.now() + options.timeoutMs;
      runtime.setInterruptHandler(() => {
        if (performance.now() <= deadline) return false;
        timedOut = true;
        return true;
      });

      const evaluated = context.evalCode(code, "main.js");
      let outcome: { result: unknown; error?: string };
      if (evaluated.error) {
        outcome = { result: null, error: describeGuestError(context, evaluated.error) };
        evaluated.error.dispose();
      } else {
        outcome = settle(context, evaluated.value);
        evaluated.value.dispose();
      }
      if (timedOut) outcome.error = `TimeoutError: execution exceeded the ${options.timeoutMs} ms time limit`;
      return { stdout: output.toString(), ...outcome, timedOut };
    } finally {
      context.dispose();
    }
  } finally {
    runtime.dispose();
  }
}
