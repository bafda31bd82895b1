import { validationError } from "./errors.ts";
import { findProperty, type PropertySchema, simpleValue } from "./properties.ts";
import type { DataSourceRecord, Json, PageRecord } from "./state.ts";

/** Filter conditions per filter type, as in Notion's query-a-data-source reference. */
const TEXT_TYPES = new Set(["title", "rich_text", "url", "email"]);

function compareText(actual: string, condition: Json, path: string): boolean {
  const value = actual.toLowerCase();
  const [op, operand] = single(condition, path);
  const wanted = String(operand ?? "").toLowerCase();
  switch (op) {
    case "equals":
      return value === wanted;
    case "does_not_equal":
      return value !== wanted;
    case "contains":
      return value.includes(wanted);
    case "does_not_contain":
      return !value.includes(wanted);
    case "starts_with":
      return value.startsWith(wanted);
    case "ends_with":
      return value.endsWith(wanted);
    case "is_empty":
      return value === "";
    case "is_not_empty":
      return value !== "";
  }
  throw unknownOperator(op, path);
}

function compareOption(actual: string | null, condition: Json, path: string): boolean {
  const [op, operand] = single(condition, path);
  if (op === "equals") return actual === operand;
  if (op === "does_not_equal") return actual !== operand;
  if (op === "is_empty") return actual === null;
  if (op === "is_not_empty") return actual !== null;
  throw unknownOperator(op, path);
}

function compareList(actual: string[], condition: Json, path: string): boolean {
  const [op, operand] = single(condition, path);
  if (op === "contains") return actual.includes(String(operand));
  if (op === "does_not_contain") return !actual.includes(String(operand));
  if (op === "is_empty") return actual.length === 0;
  if (op === "is_not_empty") return actual.length > 0;
  throw unknownOperator(op, path);
}

function compareNumber(actual: number | null, condition: Json, path: string): boolean {
  const [op, operand] = single(condition, path);
  if (op === "is_empty") return actual === null;
  if (op === "is_not_empty") return actual !== null;
  if (actual === null) return false;
  const n = Number(operand);
  const results: Record<string, boolean> = {
    equals: actual === n,
    does_not_equal: actual !== n,
    greater_than: actual > n,
    less_than: actual < n,
    greater_than_or_equal_to: actual >= n,
    less_than_or_equal_to: actual <= n,
  };
  if (op in results) return results[op]!;
  throw unknownOperator(op, path);
}

const DAY = 86_400_000;

function compareDate(actual: string | null, condition: Json, path: string, now: Date): boolean {
  const [op, operand] = single(condition, path);
  if (op === "is_empty") return actual === null;
  if (op === "is_not_empty") return actual !== null;
  if (actual === null) return false;
  const at = Date.parse(actual);
  const relative: Record<string, [number, number]> = {
    past_week: [now.getTime() - 7 * DAY, now.getTime()],
    next_week: [now.getTime(), now.getTime() + 7 * DAY],
    past_month: [now.getTime() - 30 * DAY, now.getTime()],
    next_month: [now.getTime(), now.getTime() + 30 * DAY],
  };
  const range = relative[op];
  if (range) return at >= range[0] && at <= range[1];
  const day = (iso: string) => iso.slice(0, 10);
  const wanted = String(operand);
  if (Number.isNaN(Date.parse(wanted))) {
    throw validationError(
      `body failed validation: ${path}.${op} should be an ISO 8601 date, instead was \`${wanted}\`.`,
    );
  }
  const dateOnly = wanted.length === 10;
  const a = dateOnly ? day(actual) : actual;
  const cmp = dateOnly ? a.localeCompare(wanted) : at - Date.parse(wanted);
  const results: Record<string, boolean> = {
    equals: cmp === 0,
    before: cmp < 0,
    after: cmp > 0,
    on_or_before: cmp <= 0,
    on_or_after: cmp >= 0,
  };
  if (op in results) return results[op]!;
  throw unknownOperator(op, path);
}

function single(condition: Json, path: string): [string, unknown] {
  const entries = Object.entries(condition ?? {});
  if (entries.length !== 1) {
    throw validationError(
      `body failed validation: ${path} should have exactly one condition, instead had ${entries.length}.`,
    );
  }
  return entries[0]!;
}

function unknownOperator(op: string, path: string) {
  return validationError(`body failed validation: ${path}.${op} is not a supported filter condition.`);
}

function matchProperty(prop: PropertySchema, page: PageRecord, filter: Json, path: string, now: Date): boolean {
  const key = Object.keys(filter).find((candidate) => candidate !== "property");
  if (!key) throw validationError(`body failed validation: ${path} should name a filter type such as "${prop.type}".`);
  // A title can be filtered with "title" or "rich_text"; otherwise the filter type must match the property type.
  const compatible = key === prop.type || (prop.type === "title" && key === "rich_text");
  if (!compatible) {
    throw validationError(`database property ${prop.type} does not match filter ${key} (property "${prop.name}").`);
  }
  const value = page.properties[prop.name];
  const simple = value ? simpleValue(value) : null;
  const condition = filter[key] as Json;
  const where = `${path}.${key}`;
  if (TEXT_TYPES.has(prop.type)) return compareText(String(simple ?? ""), condition, where);
  if (prop.type === "select" || prop.type === "status") return compareOption(simple as string | null, condition, where);
  if (prop.type === "multi_select" || prop.type === "people") return compareList(simple as string[], condition, where);
  if (prop.type === "number") return compareNumber(simple as number | null, condition, where);
  if (prop.type === "date") return compareDate(simple as string | null, condition, where, now);
  if (prop.type === "checkbox") return compareOption(String(simple), { equals: String(condition.equals) }, where);
  throw validationError(`Filtering on ${prop.type} properties is not supported.`);
}

export function matchesFilter(
  source: DataSourceRecord,
  page: PageRecord,
  filter: Json,
  now: Date,
  path = "body.filter",
): boolean {
  if (Array.isArray(filter.and)) {
    return filter.and.every((part, index) => matchesFilter(source, page, part as Json, now, `${path}.and[${index}]`));
  }
  if (Array.isArray(filter.or)) {
    return filter.or.some((part, index) => matchesFilter(source, page, part as Json, now, `${path}.or[${index}]`));
  }
  if (filter.timestamp === "created_time" || filter.timestamp === "last_edited_time") {
    const stamp = filter.timestamp;
    return compareDate(page[stamp], filter[stamp] as Json, `${path}.${stamp}`, now);
  }
  if (typeof filter.property !== "string") {
    throw validationError(`body failed validation: ${path}.property should be defined, instead was \`undefined\`.`);
  }
  const prop = findProperty(source.properties, filter.property);
  if (!prop) throw validationError(`Could not find property with name or id: ${filter.property}`);
  return matchProperty(prop, page, filter, path, now);
}

interface Sort {
  property?: string;
  timestamp?: "created_time" | "last_edited_time";
  direction: "ascending" | "descending";
}

/** Sorts rows; select/status sort by option order, like Notion; empty values last. */
export function sortRows(source: DataSourceRecord, rows: PageRecord[], sorts: Sort[]): PageRecord[] {
  const keys = sorts.map((sort) => {
    if (sort.timestamp) return { sort, key: (page: PageRecord) => page[sort.timestamp!] as unknown };
    const prop = sort.property ? findProperty(source.properties, sort.property) : undefined;
    if (!prop) throw validationError(`Could not find sort property with name or id: ${String(sort.property)}`);
    const order = ((prop[prop.type] as Json | undefined)?.options as { name: string }[] | undefined)?.map(
      (o) => o.name,
    );
    return {
      sort,
      key: (page: PageRecord) => {
        const value = page.properties[prop.name];
        const simple = value ? simpleValue(value) : null;
        if (order && typeof simple === "string") return order.indexOf(simple);
        return Array.isArray(simple) ? (simple[0] ?? null) : simple;
      },
    };
  });
  const compare = (a: unknown, b: unknown): number => {
    if (a === b) return 0;
    if (a === null || a === undefined) return 1;
    if (b === null || b === undefined) return -1;
    return typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b));
  };
  return [...rows].sort((left, right) => {
    for (const { sort, key } of keys) {
      const a = key(left);
      const b = key(right);
      const empty = a === null || a === undefined || b === null || b === undefined;
      const result = compare(a, b);
      if (result !== 0) return sort.direction === "descending" && !empty ? -result : result;
    }
    return 0;
  });
}
