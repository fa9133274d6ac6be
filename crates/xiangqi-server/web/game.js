// The game page: the board, both clocks, the move list in the player's
// notation, the buttons (abort, resign, draw offers, takeback, flip) and the
// result (with the rematch). It follows the game's room through `watch` and
// catches up with `since` after a reconnect; a move without an `ack` within
// 2.5 s is sent again, same ply. A move made on the opponent's turn is a
// premove (premove.js); moves and captures sound (sounds.js); while the
// connection is lost the clocks stand still (connection.js).

import { socket } from "./socket.js";
import { h, link, playerLink } from "./dom.js";
import { createBoard, destsFromLegal, parsePlacement } from "./board.js";
import { Clocks } from "./clock.js";
import { createExplorerPanel } from "./explorer.js";
import { VIEWER_NOTATIONS } from "./viewer.js";
import { api } from "./api.js";
import { openSettingsPanel, pieceSet } from "./settings.js";
import { onLanguageChange, t } from "./i18n.js";
import { errorText } from "./errors.js";
import { resultSentence } from "./results.js";
import { onConnection, connectionLost } from "./connection.js";
import { playSound } from "./sounds.js";
import { premoveDests, markPremove } from "./premove.js";
import { takebackControls, rematchControls } from "./game_offers.js";
import { viewerWords } from "./viewer_words.js";
import { createChatPanel } from "./chat.js";

const RESEND_MS = 2500;
const SIDE_KEY = { red: "color.red", black: "color.black" };

function sideName(side) {
  return t(SIDE_KEY[side]);
}

function other(side) {
  return side === "red" ? "black" : "red";
}

function sideToMove(fen) {
  return (fen || "").split(" ")[1] === "b" ? "black" : "red";
}

function signed(n) {
  return n > 0 ? `+${n}` : `${n}`;
}

export function mountGame(main, [gameId], session) {
  const game = {
    summary: null, startFen: null, fen: null, moves: [], you: null, v: 0, legal: [],
    result: null, drawOffer: null, away: { red: null, black: null }, loaded: false, opening: null,
    takebackOffer: null, rematchOffer: null, rematch: null,
  };
  let pending = null;
  // The premove's ICCS, queued while the opponent is to move.
  let premove = null;
  let orientation = null;
  let confirmResign = false;
  let closeSettings = null;

  const boardBox = h("div", { class: "board-box", id: "board" });
  const topBar = h("div", { class: "player-bar top" });
  const bottomBar = h("div", { class: "player-bar bottom" });
  // The ECCO opening of the moves so far, as the server names it for this reader.
  const openingLine = h("p", { class: "opening", id: "opening", title: t("game.ecco_opening"), hidden: true });
  const clockEls = { red: h("span", { class: "clock", id: "clock-red" }), black: h("span", { class: "clock", id: "clock-black" }) };
  const status = h("p", { class: "status", id: "status" }, t("game.loading"));
  const moveList = h("ol", { class: "moves", id: "moves" });
  const resultBox = h("div", { class: "result", id: "result", hidden: true });
  const notice = h("p", { class: "notice", id: "game-message", hidden: true });
  const controls = h("div", { class: "controls", id: "controls" });
  const explorerBox = h("div", { class: "explorer", id: "explorer", hidden: true });
  // The server's opening explorer, when it has one, in the player's notation.
  const explorer = createExplorerPanel(explorerBox, {
    lookup: api.explorer,
    words: viewerWords,
    // The table names the opening of the moves that led to its position.
    opening: () => game.opening,
    notation: () => Math.max(0, VIEWER_NOTATIONS.findIndex(([name]) => name === (session.player && session.player.notation))),
  });
  const clocks = new Clocks(clockEls);
  const chatBox = h("div", { class: "chat", id: "chat" });
  let chat = null;
  let chatRole = "";

  const board = createBoard(boardBox, { viewOnly: true, onMove, pieces: pieceSet(session), label: t("game.board") });

  function say(text) {
    notice.textContent = text || "";
    notice.hidden = !text;
  }

  function playing() {
    return game.you && !game.result;
  }

  function onMove(from, to) {
    const move = from + to;
    if (sideToMove(game.fen) !== game.you) {
      premove = move;
      say(t("game.premove_queued", { move }));
      renderBoard();
      return;
    }
    pending = { ply: game.moves.length, move, timer: null };
    say("");
    sendPending();
  }

  function sendPending() {
    if (!pending) return;
    clearTimeout(pending.timer);
    socket.send({ t: "move", game: gameId, ply: pending.ply, move: pending.move });
    pending.timer = setTimeout(sendPending, RESEND_MS);
  }

  function dropPending() {
    if (pending) clearTimeout(pending.timer);
    pending = null;
  }

  function cancelPremove() {
    if (!premove) return;
    premove = null;
    say("");
    renderBoard();
  }

  /** On the player's turn, the queued premove is played if it is legal now. */
  function playPremove() {
    if (!premove || !playing() || sideToMove(game.fen) !== game.you || pending) return;
    const move = premove;
    premove = null;
    if (game.legal.includes(move)) onMove(move.slice(0, 2), move.slice(2, 4));
    else say(t("game.premove_illegal", { move }));
  }

  function send(t) {
    socket.send({ t, game: gameId });
  }

  function applyState(frame) {
    game.summary = frame.summary;
    game.startFen = frame.start_fen;
    game.fen = frame.fen;
    game.moves = frame.moves || [];
    game.you = frame.you;
    game.v = frame.v;
    game.legal = frame.legal || [];
    game.result = frame.result;
    game.drawOffer = frame.draw_offer;
    game.away = frame.away || { red: null, black: null };
    game.opening = frame.opening || null;
    game.takebackOffer = frame.takeback_offer || null;
    game.rematchOffer = frame.rematch_offer || null;
    game.rematch = frame.rematch || null;
    game.loaded = true;
    if (pending && game.moves.length > pending.ply) dropPending();
    if (game.result) premove = null;
    clocks.update(frame.clocks, frame.running);
    render();
  }

  function applyEvent(frame) {
    if (frame.v <= game.v) return;
    if (frame.v !== game.v + 1) {
      // Missed events: ask for them (or a full state) from the last one seen.
      socket.send({ t: "watch", game: gameId, since: game.v });
      return;
    }
    game.v = frame.v;
    const event = frame.event;
    switch (event.kind) {
      case "move":
        playSound(parsePlacement(game.fen).has(event.move.iccs.slice(2, 4)) ? "capture" : "move");
        game.takebackOffer = null;
        if (event.ply === game.moves.length) game.moves.push(event.move);
        // An older server sends no opening: keep what the last state said.
        if ("opening" in event) game.opening = event.opening;
        game.fen = event.fen;
        game.drawOffer = null;
        if (pending && pending.ply <= event.ply) dropPending();
        break;
      case "draw_offer":
        game.drawOffer = event.by;
        break;
      case "draw_declined":
        game.drawOffer = null;
        break;
      case "away":
        game.away[event.side] = 0;
        break;
      case "back":
        game.away[event.side] = null;
        break;
      case "end":
        game.result = event.result;
        game.takebackOffer = null;
        premove = null;
        dropPending();
        showNewRating(event.result);
        break;
      case "takeback_offer":
        game.takebackOffer = event.by;
        break;
      case "takeback_declined":
        game.takebackOffer = null;
        say(t("game.takeback_declined", { side: sideName(event.by) }));
        break;
      case "takeback":
        game.moves = game.moves.slice(0, event.ply);
        game.fen = event.fen;
        if ("opening" in event) game.opening = event.opening;
        game.takebackOffer = null;
        premove = null;
        dropPending();
        say(t("game.takeback_done", { side: sideName(event.by) }));
        break;
      case "rematch_offer":
        game.rematchOffer = event.by;
        break;
      case "rematch_declined":
        game.rematchOffer = null;
        say(t("game.rematch_declined", { side: sideName(event.by) }));
        break;
      case "rematch_withdrawn":
        game.rematchOffer = null;
        say(t("game.rematch_withdrawn", { side: sideName(event.by) }));
        break;
      case "rematch":
        game.rematch = event.game;
        game.rematchOffer = null;
        break;
      default:
        break;
    }
    game.legal = frame.legal || [];
    clocks.update(frame.clocks, frame.running);
    render();
    playPremove();
  }

  /** The header shows the player's rating: a rated game just changed it. */
  function showNewRating(result) {
    // A bot game is rated in the bot pool: the header's rating is not that one.
    if (game.summary && game.summary.bot) return;
    const change = game.you && result.ratings && result.ratings[game.you];
    if (change && session.player && !session.player.guest) session.setPlayer({ ...session.player, rating: change.after });
  }

  function onError(frame) {
    const ref = frame.ref || {};
    if (ref.game && ref.game !== gameId) return;
    if (pending && ref.ply === pending.ply) {
      dropPending();
      renderBoard();
    }
    say(errorText(frame));
  }

  function renderBoard() {
    const last = game.moves.length ? game.moves[game.moves.length - 1].iccs : null;
    const myTurn = playing() && sideToMove(game.fen) === game.you && !pending;
    // On the opponent's turn, one premove may be queued (a click cancels it).
    const canPremove = playing() && !myTurn && !pending && !premove;
    board.set({
      fen: game.fen,
      orientation: orientation || (game.you === "black" ? "black" : "red"),
      lastMove: last ? [last.slice(0, 2), last.slice(2, 4)] : null,
      dests: myTurn ? destsFromLegal(game.legal) : canPremove ? premoveDests(parsePlacement(game.fen), game.you) : new Map(),
      viewOnly: !myTurn && !canPremove,
      pieces: pieceSet(session),
    });
    markPremove(boardBox, premove);
    explorer.update(game.fen);
  }

  function playerBar(side) {
    const player = game.summary && game.summary[side];
    const away = game.away[side] !== null && game.away[side] !== undefined && !game.result;
    const turn = !game.result && sideToMove(game.fen) === side;
    return [
      h("span", { class: `side-dot ${side}` }),
      h("span", { class: "bar-name" }, playerLink(player), away ? h("span", { class: "away" }, ` ${t("game.away")}`) : null),
      h("span", { class: turn ? "clock-wrap turn" : "clock-wrap" }, clockEls[side]),
    ];
  }

  function renderBars() {
    const bottom = (orientation || (game.you === "black" ? "black" : "red"));
    topBar.replaceChildren(...playerBar(other(bottom)));
    bottomBar.replaceChildren(...playerBar(bottom));
  }

  function renderMoves() {
    const blackFirst = sideToMove(game.startFen) === "black";
    const rows = [];
    let row = null;
    game.moves.forEach((move, ply) => {
      const index = ply + (blackFirst ? 1 : 0);
      if (index % 2 === 0 || row === null) {
        row = h("li", {}, h("span", { class: "no" }, `${Math.floor(index / 2) + 1}.`));
        if (index % 2 === 1) row.append(h("span", { class: "mv empty" }, "…"));
        rows.push(row);
      }
      const last = ply === game.moves.length - 1;
      row.append(h("span", { class: last ? "mv last" : "mv", dataset: { ply: String(ply), iccs: move.iccs } }, move.text));
    });
    moveList.replaceChildren(...rows);
    moveList.scrollTop = moveList.scrollHeight;
  }

  function renderOpening() {
    const opening = game.opening;
    openingLine.hidden = !opening;
    openingLine.replaceChildren(...(opening ? [h("b", {}, opening.code), " ", opening.name] : []));
  }

  function renderStatus() {
    if (!game.loaded) return;
    if (game.result) {
      // The result box below says how it ended.
      status.textContent = t("game.over");
      return;
    }
    const turn = sideToMove(game.fen);
    if (game.you) status.textContent = turn === game.you ? t("game.your_move") : t("game.waiting_for", { side: sideName(turn) });
    else status.textContent = t("game.side_to_move", { side: sideName(turn) });
  }

  function renderResult() {
    const result = game.result;
    if (!result) {
      resultBox.hidden = true;
      return;
    }
    const lines = [h("div", { class: "score" }, result.result), h("p", { class: "result-text" }, resultSentence(result))];
    if (result.ratings) {
      for (const side of ["red", "black"]) {
        const change = result.ratings[side];
        if (!change) continue;
        const name = game.summary && game.summary[side] ? game.summary[side].name : sideName(side);
        lines.push(h("p", { class: "rating-change", dataset: { side } },
          `${name}: ${change.before} → ${change.after} (${signed(change.after - change.before)})`));
      }
    }
    lines.push(h("a", { href: `/games/${gameId}.pgn`, class: "pgn", download: `${gameId}.pgn` }, t("game.download_pgn")));
    // The same path again: the router shows a finished game in the viewer.
    lines.push(" · ", h("a", { href: `/games/${gameId}`, class: "pgn", id: "review-link", "data-link": true }, t("game.review")));
    lines.push(...rematchControls(game, send));
    resultBox.replaceChildren(...lines);
    resultBox.hidden = false;
  }

  function button(id, text, onclick, extra = {}) {
    return h("button", { id, type: "button", onclick, ...extra }, text);
  }

  function renderControls() {
    const buttons = [];
    if (playing()) {
      const mine = game.you;
      if (game.drawOffer && game.drawOffer !== mine) {
        buttons.push(h("span", { class: "offer" }, t("game.offers_draw", { side: sideName(game.drawOffer) })));
        buttons.push(button("accept-draw", t("game.accept"), () => socket.send({ t: "accept_draw", game: gameId }), { class: "primary" }));
        buttons.push(button("decline-draw", t("game.decline"), () => socket.send({ t: "decline_draw", game: gameId })));
      } else {
        buttons.push(button("offer-draw", game.drawOffer === mine ? t("game.draw_offered") : t("game.offer_draw"),
          () => socket.send({ t: "offer_draw", game: gameId }), { disabled: game.drawOffer === mine }));
      }
      buttons.push(...takebackControls(game, send));
      // Before both sides have moved, a game can be called off, unrated.
      if (game.moves.length < 2) buttons.push(button("abort", t("game.abort"), () => socket.send({ t: "abort", game: gameId })));
      buttons.push(confirmResign
        ? button("resign", t("game.confirm_resign"), () => { confirmResign = false; socket.send({ t: "resign", game: gameId }); }, { class: "danger" })
        : button("resign", t("game.resign"), () => { confirmResign = true; renderControls(); setTimeout(() => { confirmResign = false; renderControls(); }, 4000); }));
    }
    buttons.push(button("flip", t("game.flip"), () => {
      orientation = board.orientation === "red" ? "black" : "red";
      render();
    }));
    controls.replaceChildren(...buttons);
  }

  /** Settings over the board, not on a page of their own: the player stays at the board. */
  function showSettings() {
    if (closeSettings) return;
    // Once saved, a full state brings the moves so far in the new notation.
    closeSettings = openSettingsPanel(session, () => socket.send({ t: "watch", game: gameId }), () => (closeSettings = null));
  }

  /** Whether this tab is at the board of a game the player plays (a live game's page counts until its state arrives). */
  function boardInPlay() {
    return !game.loaded || playing();
  }

  /** The chats, once the viewer's side is known; read again when the game ends. */
  function renderChat() {
    if (!game.loaded) return;
    const role = `${Boolean(game.you)}/${Boolean(game.result)}`;
    if (!chat) chat = createChatPanel(chatBox, gameId, session, () => ({ player: Boolean(game.you), over: Boolean(game.result) }));
    else if (role !== chatRole) chat.refresh();
    chatRole = role;
  }

  function render() {
    renderChat();
    renderBoard();
    renderBars();
    renderMoves();
    renderOpening();
    renderStatus();
    renderResult();
    renderControls();
    document.title = game.result ? `${t("app.title")} · ${game.result.result}` : playing() && sideToMove(game.fen) === game.you ? `${t("app.title")} · ${t("game.your_move")}` : t("app.title");
  }

  const offs = [
    socket.whenReady(() => {
      socket.send(game.v > 0 ? { t: "watch", game: gameId, since: game.v } : { t: "watch", game: gameId });
      sendPending();
    }),
    socket.on("state", (frame) => frame.game === gameId && applyState(frame)),
    socket.on("event", (frame) => frame.game === gameId && applyEvent(frame)),
    socket.on("ack", (frame) => {
      if (frame.game === gameId && pending && frame.ply === pending.ply) {
        dropPending();
        renderBoard();
      }
    }),
    socket.on("error", onError),
    // Lost: the clocks stand still. Back: a full state brings the server's clocks.
    onConnection((lost) => {
      if (lost) clocks.freeze();
      else send("watch");
    }),
  ];
  if (connectionLost()) clocks.freeze();
  // A click on the board while a premove waits cancels it (and picks nothing up).
  boardBox.addEventListener("pointerdown", (event) => {
    if (!premove) return;
    event.stopPropagation();
    event.preventDefault();
    cancelPremove();
  }, true);

  const movesHeading = h("h3", {}, t("game.moves"));
  const lobbyLink = link("/", t("game.to_lobby"));
  const settingsButton = h("button", { type: "button", class: "linkish", id: "game-settings", onclick: showSettings }, t("nav.settings"));
  // A new language (chosen in the settings over the board) redraws the words
  // in place: the page stays mounted, so the player stays at the board.
  offs.push(onLanguageChange(() => {
    openingLine.title = t("game.ecco_opening");
    movesHeading.textContent = t("game.moves");
    lobbyLink.textContent = t("game.to_lobby");
    settingsButton.textContent = t("nav.settings");
    if (game.loaded) render();
    else status.textContent = t("game.loading");
  }));

  main.append(
    h("div", { class: "game" },
      h("div", { class: "board-column" }, topBar, boardBox, bottomBar, openingLine),
      h("aside", { class: "panel side" },
        status, resultBox, notice,
        movesHeading, moveList,
        controls, explorerBox, chatBox,
        h("p", { class: "small" }, lobbyLink, " · ", settingsButton))));
  renderControls();
  // While this page is up, the header's Settings opens over the board, and a
  // new game of the player's does not take this tab away from a game in play.
  session.settingsInPage = showSettings;
  session.boardInPlay = boardInPlay;

  return () => {
    offs.forEach((off) => off());
    if (closeSettings) closeSettings();
    if (session.settingsInPage === showSettings) session.settingsInPage = null;
    if (session.boardInPlay === boardInPlay) session.boardInPlay = null;
    dropPending();
    if (chat) chat.destroy();
    clocks.stop();
    socket.send({ t: "unwatch", game: gameId });
    board.destroy();
    document.title = t("app.title");
  };
}
