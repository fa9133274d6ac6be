// An error the server reports (a socket `error` frame, an `ApiError` of the
// HTTP API) in the player's language: the server sends a code and, where the
// words need them, `args`; its English `message` is the fallback for a code
// this client does not know (a newer server).

import { has, t } from "./i18n.js";

/** The words for `error` ({code, message, args}), in the player's language. */
export function errorText(error) {
  if (!error) return "";
  const key = `error.${error.code}`;
  if (error.code && has(key)) return t(key, error.args || {});
  return error.message || t("error.unknown");
}
