// Classifies each line of `opening_lines` output (source, tag, our code,
// ICCS moves) with the reference implementation, vschess's WXF2ECCO, and
// prints every line where the reference's code differs from ours, then the
// counts; exits 1 when any differ. vschess is not part of this project: the
// checkout is given. See compare_with_vschess.sh and docs/ecco.md.
//
// node vschess_reference.js VSCHESS_CHECKOUT < lines.tsv
"use strict";
const fs = require("fs");
const path = require("path");

const checkout = process.argv[2];
const library = checkout && path.join(checkout, "vschess", "vschess.function.js");
if (!library || !fs.existsSync(library)) {
  console.log(`skipped: no vschess function library at ${library}`);
  process.exit(0);
}
const vs = require(path.resolve(library));
// The classifier as its source file has it, when the checkout has the
// sources (the built library carries the same function).
const classifierFile = path.join(checkout, "vschess", "develop", "module", "function.wxfToEcco.js");
let classifier = library;
if (fs.existsSync(classifierFile)) {
  new Function("vs", fs.readFileSync(classifierFile, "utf8"))(vs);
  classifier = classifierFile;
}

// The reference reads moves as its own WXF text, written from ICCS by its
// own notation writer, position by position.
function referenceCode(iccsMoves) {
  let fen = vs.defaultFen;
  const wxf = [];
  for (const move of iccsMoves) {
    const written = vs.Node2WXF(move, fen);
    if (written.move === "None") return "illegal";
    wxf.push(written.move);
    fen = written.movedFen;
  }
  return vs.WXF2ECCO(wxf).ecco;
}

const lines = fs.readFileSync(0, "utf8").split("\n").filter((l) => l.trim());
let agree = 0, tagged = 0, oursTag = 0, referenceTag = 0;
const kinds = new Map();
for (const line of lines) {
  const [source, tag, ours, moves] = line.split("\t");
  const reference = referenceCode(moves.split(" "));
  if (reference === ours) agree += 1;
  else {
    console.log(`${source}\ttag ${tag}\tours ${ours}\treference ${reference}\t${moves}`);
    const kind = `ours ${ours} reference ${reference}`;
    kinds.set(kind, (kinds.get(kind) || 0) + 1);
  }
  if (tag !== "-") {
    tagged += 1;
    if (ours === tag) oursTag += 1;
    if (reference === tag) referenceTag += 1;
  }
}
for (const [kind, n] of [...kinds].sort((a, b) => b[1] - a[1])) console.log(`${n}\t${kind}`);
console.log(`reference: ${classifier}`);
console.log(`${lines.length} lines: our code equals the reference's on ${agree}, ${lines.length - agree} differ`);
if (tagged) {
  console.log(`${tagged} tagged: ours equals the [ECCO] tag on ${oursTag}, the reference's on ${referenceTag}`);
}
process.exit(agree === lines.length ? 0 : 1);
