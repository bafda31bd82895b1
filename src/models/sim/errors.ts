/** Typed errors of the simulator. Model-call failures (abort, timeout) use the model layer's own classes. */

import { InputError, OnsetlabError } from "../../errors.ts";

/** `sim:<name>` with a name no profile has; the message lists the known ones. */
export class UnknownSimProfileError extends InputError {}

/** profiles.json does not match profiles.schema.json: a defect of the repository, not of user input. */
export class SimProfileDataError extends OnsetlabError {}
