/** The trace part's public surface: the OpenTelemetry JSON-lines span exporter a run writes traces with. */

export { JsonlSpanProcessor, type SpanLine } from "./jsonl-exporter.ts";
