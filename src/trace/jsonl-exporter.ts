/**
 * An OpenTelemetry SpanExporter that appends one JSON line per finished span (there is no official
 * file exporter). Lines are written synchronously, in the order spans end, so a killed run keeps
 * every span it finished.
 */
import { type HrTime, SpanStatusCode } from "@opentelemetry/api";
import { type ExportResult, ExportResultCode, hrTimeToMilliseconds } from "@opentelemetry/core";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base";

/** One line of traces.jsonl. Times are epoch milliseconds (fractional). */
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
  const ms = (time: HrTime) => hrTimeToMilliseconds(time);
  const status =
    span.status.code === SpanStatusCode.ERROR ? "error" : span.status.code === SpanStatusCode.OK ? "ok" : "unset";
  return {
    traceId: context.traceId,
    spanId: context.spanId,
    ...(span.parentSpanContext ? { parentSpanId: span.parentSpanContext.spanId } : {}),
    name: span.name,
    startMs: ms(span.startTime),
    endMs: ms(span.endTime),
    durationMs: ms(span.duration),
    status,
    ...(span.status.message ? { statusMessage: span.status.message } : {}),
    attributes: { ...span.attributes },
  };
}

export class JsonlSpanExporter implements SpanExporter {
  constructor(private readonly write: (line: SpanLine) => void) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    try {
      for (const span of spans) this.write(toSpanLine(span));
      resultCallback({ code: ExportResultCode.SUCCESS });
    } catch (error) {
      resultCallback({ code: ExportResultCode.FAILED, error: error as Error });
    }
  }

  async shutdown(): Promise<void> {}
}
