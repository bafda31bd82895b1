/**
 * Where a reader of a run file that a running bench appends to goes on from: where it stopped, or the
 * start again when the file was cut shorter (a resume cut a torn tail off) or replaced (a resume rewrote
 * it without the records it runs again: another inode, whatever its size).
 */
import { statSync } from "node:fs";

export class GrowingFile {
  /** The first byte not read yet; the reader moves it on as it reads. */
  readTo = 0;
  /** The inode read: a file renamed over it is another file. */
  private inode: number | undefined;

  constructor(readonly file: string) {}

  /**
   * Looks at the file: `restarted` when what was read no longer stands (the reader forgets it; `readTo` is
   * back at 0), `grown` when there are bytes from `readTo` on to read.
   */
  check(): { restarted: boolean; grown: boolean } {
    const stat = statSync(this.file, { throwIfNoEntry: false });
    const size = stat?.size ?? 0;
    const restarted = size < this.readTo || stat?.ino !== this.inode;
    this.inode = stat?.ino;
    if (restarted) this.readTo = 0;
    return { restarted, grown: size > this.readTo };
  }
}
