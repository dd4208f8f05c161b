/**
 * Loaded before the app (index.html): a returning player's socket opens, says hello and takes the resumed
 * state while the rest of the app's modules are still on their way; the session takes that connection over.
 * Its one import is the connection module, fetched in the first wave of the page's preloads.
 */

import { startEarly } from './connection.js';

try {
  startEarly(window.location, window.localStorage);
} catch {
  // no storage (a locked-down browser): the app connects as it always did
}
