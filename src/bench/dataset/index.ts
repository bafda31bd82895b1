/** The dataset part's public surface: load and check datasets, select items, suites, exposure and the state checks of an item. */

export { checkAnswer } from "./answer-check.ts";
export { checkDataset, type DatasetCheckReport } from "./check.ts";
export { closeItems } from "./close-items.ts";
export { toolCallCheckProblems } from "./crosscheck.ts";
export { DatasetError, formatProblem } from "./errors.ts";
export { DEFAULT_EXPOSURE, EXPOSURES, type Exposure } from "./exposure.ts";
export { requireSuiteServers } from "./known-tools.ts";
export { loadAll, loadConversations, loadDataset, readDataset, resolveDatasetFiles } from "./load.ts";
export { datasetRegex } from "./regex.ts";
export { type ItemCount, type ItemSelection, narrowItems, parseFilter, selectItems, selectionHash } from "./select.ts";
export { starterConversations, starterItems, starterSuite } from "./starter.ts";
export {
  checkLabel,
  checkServer,
  isToolCallCheck,
  readOnlyIn,
  runToolCallCheck,
  type StateOutcome,
} from "./state-checks.ts";
export { loadSuite, type Suite, suiteOf } from "./suite.ts";
export {
  type AnswerCheck,
  CATEGORIES,
  type Category,
  CONVERSATION_KINDS,
  type ConversationItem,
  type ConversationKind,
  type ConversationTurnSpec,
  conversationSessionItem,
  type DatasetItem,
  type Difficulty,
  type ExpectedCall,
  type ExpectedRoute,
  type LoadedItem,
  type StateCheckSpec,
  turnAsItem,
} from "./types.ts";
export { worldContext } from "./world-clock.ts";
