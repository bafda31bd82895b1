/**
 * An index of a run's records file: one small row per record (key, item, outcome, failure class) and
 * where it sits (its line, or its gzip member and line in it), so that a page of items is filtered in memory and a record is read alone. Built
 * once per file and extended from where it stopped when the file grows (a running bench appends); built
 * again when the file was replaced (a resume rewrites it without the records it runs again).
 */

import { type RunRecord, type StoredRecord, withTrace } from "../bench/run/run-file-types.ts";
import { forEachRunRecord, readRunRecord } from "../bench/run/run-format.ts";
import type { RowLocation } from "../bench/run/store.ts";
import { GrowingFile } from "./growing-file.ts";

export interface ItemRow {
  key: string;
  itemId: string;
  model: string;
  config: string;
  repeat: number;
  category: string;
  servers: string[];
  taskSuccess: boolean;
  /** The primary failure kind of a failed item. */
  failureClass?: string;
  /** Why the item could not be scored. */
  invalid?: string;
  query: string;
}

interface IndexedRow {
  row: ItemRow;
  location: RowLocation;
}

export class RecordIndex {
  private readonly entries: IndexedRow[] = [];
  private readonly byKey = new Map<string, IndexedRow>();
  private readonly tail: GrowingFile;

  constructor(private readonly file: string) {
    this.tail = new GrowingFile(file);
  }

  /** Every row, in file order (brought up to date first). */
  rows(): readonly ItemRow[] {
    this.refresh();
    return this.entries.map((entry) => entry.row);
  }

  /** The whole record with this key, read from its line; undefined when the run has none. */
  record(key: string): RunRecord | undefined {
    this.refresh();
    const entry = this.byKey.get(key);
    return entry ? withTrace(readRunRecord(this.file, entry.location)) : undefined;
  }

  private refresh(): void {
    const { restarted, grown } = this.tail.check();
    if (restarted) {
      this.entries.length = 0;
      this.byKey.clear();
    }
    if (!grown) return;
    forEachRunRecord(
      this.file,
      (record, _line, location) => {
        const indexed = { row: itemRow(record), location };
        const earlier = this.byKey.get(indexed.row.key);
        if (earlier) this.entries[this.entries.indexOf(earlier)] = indexed;
        else this.entries.push(indexed);
        this.byKey.set(indexed.row.key, indexed);
        this.tail.readTo = location.end;
      },
      this.tail.readTo,
    );
  }
}

function itemRow(record: StoredRecord): ItemRow {
  const { score } = record;
  return {
    key: record.key,
    itemId: record.itemId,
    model: record.model,
    config: record.config,
    repeat: record.repeat,
    category: record.category,
    servers: record.session.servers,
    taskSuccess: score.taskSuccess,
    ...(score.failures[0] ? { failureClass: score.failures[0] } : {}),
    ...(score.invalid ? { invalid: score.invalid } : {}),
    // a conversation: its first turn's text
    query: record.result?.query ?? record.conversation?.turns[0]?.user ?? "",
  };
}
