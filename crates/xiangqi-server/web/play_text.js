// The words of the play features (takeback, rematch, premove, sounds, the
// connection banner), in one place until they join the translations.

const WORDS = {
  "takeback.ask": "Takeback",
  "takeback.asked": "Takeback asked",
  "takeback.offer": "{side} asks to take back a move",
  "takeback.accept": "Accept",
  "takeback.decline": "Decline",
  "takeback.done": "{side}'s takeback was accepted.",
  "takeback.declined": "{side} declined the takeback.",
  "rematch.offer": "Rematch",
  "rematch.offered": "Rematch offered",
  "rematch.incoming": "{side} offers a rematch",
  "rematch.accept": "Accept",
  "rematch.decline": "Decline",
  "rematch.declined": "{side} declined the rematch.",
  "rematch.withdrawn": "{side} left: the rematch offer is withdrawn.",
  "rematch.watch": "Watch the rematch",
  "premove.queued": "Premove {move}: played as soon as it is your turn (click the board to cancel)",
  "premove.illegal": "Premove {move} is not legal now: cancelled.",
  "connection.lost": "Connection lost: reconnecting… The clocks are stopped until the server answers.",
  "sound.label": "Move and capture sounds",
  "sound.heading": "Sounds",
};

/** The words for `key`, with `{name}` replaced by `args.name`. */
export function words(key, args = {}) {
  const text = WORDS[key] || key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in args ? String(args[name]) : `{${name}}`));
}
