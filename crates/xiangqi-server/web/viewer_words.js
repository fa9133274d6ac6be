// The shared viewer's and explorer table's words (`xiangqi-viewer`'s
// VIEWER_WORDS and EXPLORER_WORDS) in the player's language: each key is
// `viewer.<key>` in the catalogues.

import { has, t } from "./i18n.js";

/** The `words` option of `mountViewer` and `createExplorerPanel`. */
export function viewerWords(key, args) {
  const name = `viewer.${key}`;
  return has(name) ? t(name, args) : undefined;
}
