/** What the viewer's browser code may load from datasets: an item's types and the dataset's regular expressions. */

export { datasetRegex } from "./regex.ts";
export type { Category, DatasetItem, ExpectedCall, ExpectedRoute } from "./types.ts";
