// JSON over HTTP: the /api endpoints, errors turned into exceptions that
// carry the server's code and message.

export class ApiError extends Error {
  constructor(status, code, message, args) {
    super(message);
    this.status = status;
    this.code = code;
    this.args = args || {};
  }
}

async function request(method, path, body) {
  const init = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = (data && data.error) || {};
    // An answer without an error body (a proxy's) is named by its status.
    const args = error.code ? error.args : { status: response.status };
    throw new ApiError(response.status, error.code || "http", error.message || `The server answered ${response.status}.`, args);
  }
  return data;
}

export const api = {
  me: () => request("GET", "/api/me"),
  register: (name, password) => request("POST", "/api/register", { name, password }),
  login: (name, password) => request("POST", "/api/login", { name, password }),
  logout: () => request("POST", "/api/logout"),
  setNotation: (notation) => request("PUT", "/api/settings", { notation }),
  setSettings: (settings) => request("PUT", "/api/settings", settings),
  // `filters`: { ecco, result, rated, opponent, page }; empty ones are left out.
  player: (name, filters = {}) => {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(filters)) if (value !== undefined && value !== null && value !== "") query.set(key, value);
    const text = query.toString();
    return request("GET", `/api/players/${encodeURIComponent(name)}${text ? `?${text}` : ""}`);
  },
  changePassword: (old, password) => request("POST", "/api/account/password", { old, new: password }),
  deleteAccount: (password) => request("POST", "/api/account/delete", { password }),
  chat: (id) => request("GET", `/api/games/${encodeURIComponent(id)}/chat`),
  report: (report) => request("POST", "/api/reports", report),
  game: (id) => request("GET", `/api/games/${encodeURIComponent(id)}`),
  viewer: (id) => request("GET", `/api/games/${encodeURIComponent(id)}/viewer`),
  annotate: (id) => request("POST", `/api/games/${encodeURIComponent(id)}/annotate`),
  // Puzzles: the next one (no solution in it), a move judged by the server, the solution (a loss).
  puzzleNext: () => request("POST", "/api/puzzles/next"),
  puzzleMove: (attempt, move) => request("POST", `/api/puzzles/attempts/${encodeURIComponent(attempt)}/move`, { move }),
  puzzleSolution: (attempt) => request("POST", `/api/puzzles/attempts/${encodeURIComponent(attempt)}/solution`),
  // Bots: those online, a challenge to one (by the session), its withdrawal; the account's API tokens.
  botsOnline: () => request("GET", "/api/bots/online"),
  challenge: (name, terms) => request("POST", `/api/challenge/${encodeURIComponent(name)}`, terms),
  cancelChallenge: (id) => request("POST", `/api/challenge/${encodeURIComponent(id)}/cancel`),
  tokens: () => request("GET", "/api/account/tokens"),
  createToken: (description) => request("POST", "/api/account/tokens", { description }),
  revokeToken: (id) => request("DELETE", `/api/account/tokens/${encodeURIComponent(id)}`),
  // The opening explorer's table (`xiangqi serve --explorer`); null when the server has none.
  explorer: async (fen) => {
    try {
      return await request("GET", `/api/explorer?fen=${encodeURIComponent(fen)}`);
    } catch (error) {
      if (error.status === 404) return null;
      throw error;
    }
  },
};
