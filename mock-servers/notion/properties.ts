import { validationError } from "./errors.ts";
import { uuidFrom } from "./ids.ts";
import { parseRichText, plainText, type RichText, richText } from "./richtext.ts";
import type { Json, NotionState, NotionUser } from "./state.ts";

/** A data source property definition, in the API's shape: {id, name, type, [type]: config}. */
export interface PropertySchema {
  id: string;
  name: string;
  type: string;
  [config: string]: unknown;
}

/** A page property value, in the API's shape: {id, type, [type]: value}. */
export interface PropertyValue {
  id: string;
  type: string;
  [value: string]: unknown;
}

export interface SelectOption {
  id: string;
  name: string;
  color: string;
  description?: string | null;
}

export interface FixtureProperty {
  id: string;
  type: string;
  options?: [string, string][];
  groups?: Record<string, string[]>;
  format?: string;
}

export const SUPPORTED_TYPES = [
  "title",
  "rich_text",
  "number",
  "select",
  "multi_select",
  "status",
  "date",
  "people",
  "checkbox",
  "url",
  "email",
] as const;

const option = (scope: string, name: string, color = "default"): SelectOption => ({
  id: uuidFrom(`option:${scope}:${name}`).slice(0, 8),
  name,
  color,
  description: null,
});

export function buildSchema(scope: string, fixture: Record<string, FixtureProperty>): Record<string, PropertySchema> {
  const schema: Record<string, PropertySchema> = {};
  for (const [name, prop] of Object.entries(fixture)) {
    let config: Json = {};
    const options = (prop.options ?? []).map(([optionName, color]) => option(`${scope}:${name}`, optionName, color));
    if (prop.type === "select" || prop.type === "multi_select") config = { options };
    if (prop.type === "status") {
      const groups = Object.entries(prop.groups ?? {}).map(([group, members]) => ({
        id: uuidFrom(`group:${scope}:${group}`).slice(0, 8),
        name: group,
        color: "default",
        option_ids: options.filter((candidate) => members.includes(candidate.name)).map((candidate) => candidate.id),
      }));
      config = { options, groups };
    }
    if (prop.type === "number") config = { format: prop.format ?? "number" };
    schema[name] = { id: prop.id, name, type: prop.type, [prop.type]: config };
  }
  return schema;
}

function emptyValue(type: string): unknown {
  if (["title", "rich_text", "multi_select", "people"].includes(type)) return [];
  if (type === "checkbox") return false;
  return null;
}

function options(prop: PropertySchema): SelectOption[] {
  return ((prop[prop.type] as Json | undefined)?.options as SelectOption[] | undefined) ?? [];
}

const publicOption = ({ id, name, color }: SelectOption) => ({ id, name, color });

function userObject(state: NotionState, id: string, path: string): NotionUser {
  const user = state.users.find((candidate) => candidate.id === id) ?? (state.bot.id === id ? state.bot : undefined);
  if (!user) throw validationError(`body failed validation: ${path} refers to user ${id}, which does not exist.`);
  return structuredClone(user);
}

export function valueFromFixture(
  state: NotionState,
  prop: PropertySchema,
  raw: unknown,
  userId: (handle: string) => string,
): PropertyValue {
  let value: unknown = emptyValue(prop.type);
  if (raw !== null && raw !== undefined) {
    switch (prop.type) {
      case "title":
      case "rich_text":
        value = richText(String(raw));
        break;
      case "select":
      case "status":
        value = publicOption(options(prop).find((candidate) => candidate.name === raw)!);
        break;
      case "multi_select":
        value = (raw as string[]).map((name) =>
          publicOption(options(prop).find((candidate) => candidate.name === name)!),
        );
        break;
      case "people":
        value = (raw as string[]).map((handle) => userObject(state, userId(handle), prop.name));
        break;
      case "date":
        value = { start: String(raw), end: null, time_zone: null };
        break;
      default:
        value = raw;
    }
  }
  return { id: prop.id, type: prop.type, [prop.type]: value };
}

/** Finds an option by {name} or {id}; a new name becomes a new option (select, multi_select) or an error (status). */
function resolveOption(prop: PropertySchema, input: unknown, path: string): SelectOption {
  const wanted = input as { name?: unknown; id?: unknown } | null;
  const list = options(prop);
  const found = list.find((candidate) =>
    wanted?.id !== undefined ? candidate.id === wanted.id : candidate.name === wanted?.name,
  );
  if (found) return found;
  if (typeof wanted?.name !== "string" || prop.type === "status") {
    const label = wanted?.name ?? wanted?.id;
    const known = list.map((candidate) => `"${candidate.name}"`).join(", ");
    throw validationError(
      prop.type === "status"
        ? `Invalid status option. Status option ${JSON.stringify(label)} does not exist for property "${prop.name}" (options: ${known}).`
        : `body failed validation: ${path}.name should be a string, instead was \`${JSON.stringify(label)}\`.`,
    );
  }
  const created = option(`${prop.id}:runtime`, wanted.name);
  list.push(created);
  return created;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * Parses one property of a request (`properties.<name>`), e.g. {status:{name:"Done"}} or {title:[…]}.
 * Title and rich_text also accept the bare rich-text array, as the API does.
 */
export function valueFromInput(state: NotionState, prop: PropertySchema, input: unknown, path: string): PropertyValue {
  const type = prop.type;
  let raw: unknown;
  if (Array.isArray(input) && (type === "title" || type === "rich_text")) raw = input;
  else if (input && typeof input === "object" && type in (input as Json)) raw = (input as Json)[type];
  else {
    throw validationError(
      `body failed validation: ${path}.${type} should be defined, instead was \`undefined\`. (${prop.name} is a ${type} property.)`,
    );
  }
  const where = `${path}.${type}`;
  let value: unknown;
  switch (type) {
    case "title":
    case "rich_text":
      value = parseRichText(raw, where);
      break;
    case "select":
    case "status":
      value = raw === null ? null : publicOption(resolveOption(prop, raw, where));
      break;
    case "multi_select":
      if (!Array.isArray(raw)) throw validationError(`body failed validation: ${where} should be an array.`);
      value = raw.map((item, index) => publicOption(resolveOption(prop, item, `${where}[${index}]`)));
      break;
    case "people":
      if (!Array.isArray(raw)) throw validationError(`body failed validation: ${where} should be an array.`);
      value = raw.map((item, index) => userObject(state, String((item as Json)?.id), `${where}[${index}].id`));
      break;
    case "date": {
      const date = raw as { start?: unknown; end?: unknown } | null;
      if (date !== null && (typeof date?.start !== "string" || !ISO_DATE.test(date.start))) {
        throw validationError(
          `body failed validation: ${where}.start should be an ISO 8601 date string, instead was \`${JSON.stringify(date?.start)}\`.`,
        );
      }
      value =
        date === null
          ? null
          : { start: date.start, end: typeof date.end === "string" ? date.end : null, time_zone: null };
      break;
    }
    case "number":
      if (raw !== null && typeof raw !== "number")
        throw validationError(`body failed validation: ${where} should be a number.`);
      value = raw;
      break;
    case "checkbox":
      if (typeof raw !== "boolean") throw validationError(`body failed validation: ${where} should be a boolean.`);
      value = raw;
      break;
    default:
      if (raw !== null && typeof raw !== "string")
        throw validationError(`body failed validation: ${where} should be a string.`);
      value = raw;
  }
  return { id: prop.id, type, [type]: value };
}

/** A property value reduced to plain data: text, option name(s), user IDs, a date start, a number or a boolean. */
export function simpleValue(value: PropertyValue): unknown {
  const raw = value[value.type];
  switch (value.type) {
    case "title":
    case "rich_text":
      return plainText(raw as RichText[]);
    case "select":
    case "status":
      return (raw as SelectOption | null)?.name ?? null;
    case "multi_select":
      return (raw as SelectOption[]).map((item) => item.name);
    case "people":
      return (raw as NotionUser[]).map((user) => user.id);
    case "date":
      return (raw as { start: string } | null)?.start ?? null;
    default:
      return raw;
  }
}

/** A property of a schema by name or by ID. */
export function findProperty(schema: Record<string, PropertySchema>, key: string): PropertySchema | undefined {
  return schema[key] ?? Object.values(schema).find((prop) => prop.id === key || decodeURIComponent(prop.id) === key);
}

/** Parses a property definition of a data source request, e.g. {select:{options:[{name:"High"}]}} or {type:"date", date:{}}. */
export function definitionFromInput(
  scope: string,
  name: string,
  input: unknown,
  path: string,
  id?: string,
): PropertySchema {
  const def = (input ?? {}) as Json;
  const type = typeof def.type === "string" ? def.type : SUPPORTED_TYPES.find((candidate) => candidate in def);
  if (!type || !(SUPPORTED_TYPES as readonly string[]).includes(type)) {
    throw validationError(
      `body failed validation: ${path} should declare one of ${SUPPORTED_TYPES.join(", ")}, instead was \`${JSON.stringify(input)}\`.`,
    );
  }
  const config = (def[type] ?? {}) as Json;
  let stored: Json = {};
  if (type === "select" || type === "multi_select" || type === "status") {
    const list = Array.isArray(config.options) ? (config.options as { name?: unknown; color?: unknown }[]) : [];
    stored = {
      options: list.map((item) => option(`${scope}:${name}`, String(item.name), String(item.color ?? "default"))),
    };
    if (type === "status") stored.groups = [];
  }
  if (type === "number") stored = { format: typeof config.format === "string" ? config.format : "number" };
  const propId = id ?? (type === "title" ? "title" : uuidFrom(`property:${scope}:${name}`).slice(0, 4));
  return { id: propId, name, type, [type]: stored };
}

export function emptyPropertyValue(prop: PropertySchema): PropertyValue {
  return { id: prop.id, type: prop.type, [prop.type]: emptyValue(prop.type) };
}
