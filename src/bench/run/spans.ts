/**
 * OpenTelemetry spans for a run (DESIGN §9): run → query → stage → model call / tool call → attempt,
 * with the GenAI semantic-convention attribute names. Built from a finished trace (the agent records
 * offsets from its start), so the agent itself carries no tracing code.
 */
import {
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanStatusCode,
  TraceFlags,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import type { AgentResult } from "../../agent/types.ts";
import { JsonlSpanProcessor, type SpanLine } from "../../trace/jsonl-exporter.ts";

/** The run span, open while the run lasts: its ids are the parent every query span names. */
export interface RunTracer {
  parent: SpanParent;
  /** Ends the run span and flushes. */
  end(attributes?: Record<string, string | number | boolean>): Promise<void>;
}

/** A span of another tracer (the run span, possibly in another thread), as plain data. */
export interface SpanParent {
  traceId: string;
  spanId: string;
}

/** Spans of finished queries, under a run span. */
export interface QueryTracer {
  recordQuery(query: QuerySpanInput): void;
  /** Flushes. */
  end(): Promise<void>;
}

export interface QuerySpanInput {
  key: string;
  model: string;
  config: string;
  itemId: string;
  category: string;
  /** Epoch ms when the query started. */
  startedAt: number;
  result: AgentResult;
  taskSuccess?: boolean;
}

function tracerProvider(runId: string, write: (line: SpanLine) => void): BasicTracerProvider {
  return new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": "onsetlab-bench", "onsetlab.run_id": runId }),
    spanProcessors: [new JsonlSpanProcessor(write)],
  });
}

export function startRunTracer(runId: string, write: (line: SpanLine) => void): RunTracer {
  const provider = tracerProvider(runId, write);
  const runSpan = provider.getTracer("onsetlab-bench").startSpan("run", { attributes: { "onsetlab.run_id": runId } });
  const { traceId, spanId } = runSpan.spanContext();
  return {
    parent: { traceId, spanId },
    end: async (attributes = {}) => {
      runSpan.setAttributes(attributes);
      runSpan.end();
      await provider.shutdown();
    },
  };
}

export function startQueryTracer(runId: string, parent: SpanParent, write: (line: SpanLine) => void): QueryTracer {
  const provider = tracerProvider(runId, write);
  const tracer = provider.getTracer("onsetlab-bench");
  const runContext = trace.setSpanContext(ROOT_CONTEXT, { ...parent, traceFlags: TraceFlags.SAMPLED, isRemote: true });
  return {
    recordQuery: (input) => recordQuerySpans(tracer, runContext, input),
    end: () => provider.shutdown(),
  };
}

interface Interval {
  start: number;
  end: number;
}

function recordQuerySpans(tracer: Tracer, parent: Context, input: QuerySpanInput): void {
  const { result, startedAt } = input;
  const query = tracer.startSpan(
    "query",
    {
      startTime: startedAt,
      attributes: {
        "onsetlab.key": input.key,
        "onsetlab.item_id": input.itemId,
        "onsetlab.category": input.category,
        "onsetlab.config": input.config,
        "onsetlab.path": result.path,
        "gen_ai.request.model": input.model,
        ...(input.taskSuccess === undefined ? {} : { "onsetlab.task_success": input.taskSuccess }),
      },
    },
    parent,
  );
  if (result.error)
    query.setStatus({ code: SpanStatusCode.ERROR, message: `${result.error.stage}: ${result.error.message}` });
  const queryContext = trace.setSpan(parent, query);
  const stages = new Map<string, { interval: Interval; children: ((stageContext: Context) => void)[] }>();
  const inStage = (stage: string, interval: Interval, emit: (stageContext: Context) => void) => {
    const entry = stages.get(stage);
    if (entry) {
      entry.interval.start = Math.min(entry.interval.start, interval.start);
      entry.interval.end = Math.max(entry.interval.end, interval.end);
      entry.children.push(emit);
    } else stages.set(stage, { interval: { ...interval }, children: [emit] });
  };
  for (const call of result.modelCalls) {
    const interval = { start: startedAt + call.startMs, end: startedAt + call.startMs + call.durationMs };
    inStage(call.stage, interval, (stageContext) => {
      const operation = call.kind === "chat" ? "chat" : "text_completion";
      const span = tracer.startSpan(
        `${operation} ${input.model}`,
        {
          startTime: interval.start,
          attributes: {
            "gen_ai.operation.name": operation,
            "gen_ai.request.model": input.model,
            "gen_ai.usage.input_tokens": call.usage?.promptTokens ?? 0,
            "gen_ai.usage.output_tokens": call.usage?.completionTokens ?? 0,
            ...(call.options?.temperature === undefined
              ? {}
              : { "gen_ai.request.temperature": call.options.temperature }),
            ...(call.options?.maxTokens === undefined ? {} : { "gen_ai.request.max_tokens": call.options.maxTokens }),
          },
        },
        stageContext,
      );
      endSpan(span, interval.end, call.error);
    });
  }
  for (const call of result.toolCalls) {
    const interval = { start: startedAt + call.startMs, end: startedAt + call.startMs + call.durationMs };
    inStage(call.stage, interval, (stageContext) => {
      const span = tracer.startSpan(
        `execute_tool ${call.tool}`,
        {
          startTime: interval.start,
          attributes: {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": call.tool,
            ...(call.stepId ? { "onsetlab.step_id": call.stepId } : {}),
            ...(call.blocked ? { "onsetlab.write_guard.blocked": true } : {}),
          },
        },
        stageContext,
      );
      const callContext = trace.setSpan(stageContext, span);
      let attemptStart = interval.start;
      for (const attempt of call.attempts) {
        const attemptSpan = tracer.startSpan(
          `attempt ${attempt.attempt}`,
          {
            startTime: attemptStart,
            attributes: {
              "onsetlab.attempt.outcome": attempt.outcome,
              ...(attempt.restartedServer ? { "onsetlab.attempt.restarted_server": true } : {}),
            },
          },
          callContext,
        );
        attemptStart += attempt.durationMs;
        endSpan(attemptSpan, attemptStart, attempt.outcome === "ok" ? undefined : (attempt.message ?? attempt.outcome));
      }
      endSpan(span, interval.end, call.ok ? undefined : call.text);
    });
  }
  for (const [stage, { interval, children }] of stages) {
    const span = tracer.startSpan(
      stage,
      { startTime: interval.start, attributes: { "onsetlab.stage": stage } },
      queryContext,
    );
    const stageContext = trace.setSpan(queryContext, span);
    for (const emit of children) emit(stageContext);
    span.end(interval.end);
  }
  query.end(startedAt + result.timings.totalMs);
}

function endSpan(span: Span, end: number, error: string | undefined): void {
  if (error) span.setStatus({ code: SpanStatusCode.ERROR, message: error });
  span.end(end);
}
