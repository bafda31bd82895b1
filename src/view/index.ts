/** The view part's public surface for Node: the headless browser that page checks and screenshots drive. */

export { CHROMIUM, launchChromium } from "./chromium.ts";
