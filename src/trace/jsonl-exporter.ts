/**
 * An OpenTelemetry SpanProcessor that hands one JSON line per finished span to `write` (there is no
 * official file exporter). Lines are written synchronously, in the order spans end, so a killed run
 * keeps every span it finished.
 */
import { SpanStatusCode, TraceFlags } from "@opentelemetry/api";
import { hrTimeToMilliseconds } from "@opentelemetry/core";
import type { ReadableSpan, SpanProcessor } from "@opentelemetry/sdk-trace-base";

/** One line of traces.jsonl.gz. Times are epoch milliseconds (fractional). */
export interface SpanLine {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startMs: number;
  endMs: number;
  durationMs: number;
  status: "unset" | "ok" | "error";
  statusMessage?: string;
  attributes: Record<string, unknown>;
}

export function toSpanLine(span: ReadableSpan): SpanLine {
  const context = span.spanContext();
  const status =
    span.status.code === SpanStatusCode.ERROR ? "error" : span.status.code === SpanStatusCode.OK ? "ok" : "unset";
  return {
    traceId: context.traceId,
    spanId: context.spanId,
    ...(span.parentSpanContext ? { parentSpanId: span.parentSpanContext.spanId } : {}),
    name: span.name,
    startMs: hrTimeToMilliseconds(span.startTime),
    endMs: hrTimeToMilliseconds(span.endTime),
    durationMs: hrTimeToMilliseconds(span.duration),
    status,
    ...(span.status.message ? { statusMessage: span.status.message } : {}),
    attributes: { ...span.attributes },
  };
}

/**
 * Writes each span as it ends, with no export step: the SDK's SimpleSpanProcessor wraps every span's
 * export in two promises and a context switch, which cost more than the ~9 spans of a query.
 * Unsampled spans are dropped, as the SDK's processors drop them.
 */
export class JsonlSpanProcessor implements SpanProcessor {
  constructor(private readonly write: (line: SpanLine) => void) {}

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if ((span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    this.write(toSpanLine(span));
  }

  async forceFlush(): Promise<void> {}

  async shutdown(): Promise<void> {}
}
