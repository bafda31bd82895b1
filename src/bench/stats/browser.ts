/** What the viewer's browser code may load from the statistics: Wilson intervals. */

export { wilson } from "./wilson.ts";
