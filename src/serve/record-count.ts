/**
 * How many records a run's records file holds, kept up to date as a running bench appends, without the
 * records index (RecordIndex parses every record; this only counts lines): each call reads only what was
 * appended since the last one.
 */
import { countRowsFrom } from "../bench/run/store.ts";
import { GrowingFile } from "./growing-file.ts";

export class RecordCount {
  private rows = 0;
  private readonly tail: GrowingFile;

  constructor(file: string) {
    this.tail = new GrowingFile(file);
  }

  count(): number {
    const { restarted, grown } = this.tail.check();
    if (restarted) this.rows = 0;
    if (grown) {
      const counted = countRowsFrom(this.tail.file, this.tail.readTo);
      this.rows += counted.rows;
      this.tail.readTo = counted.end;
    }
    return this.rows;
  }
}
