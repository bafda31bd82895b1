/**
 * How many records a run's records file holds, kept up to date as a running bench appends, without the
 * records index (RecordIndex parses every record; this only counts lines): each call reads only what was
 * appended since the last one.
 */
import { countRowsFrom, fileBytes } from "../bench/run/store.ts";

export class RecordCount {
  private rows = 0;
  /** The first byte not counted yet. */
  private countedTo = 0;

  constructor(private readonly file: string) {}

  count(): number {
    const size = fileBytes(this.file);
    // a resume cut a torn tail off: count again
    if (size < this.countedTo) {
      this.rows = 0;
      this.countedTo = 0;
    }
    if (size > this.countedTo) {
      const counted = countRowsFrom(this.file, this.countedTo);
      this.rows += counted.rows;
      this.countedTo = counted.end;
    }
    return this.rows;
  }
}
