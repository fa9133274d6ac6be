#!/bin/sh
# Compares our ECCO codes with the reference implementation the definitions
# come from (vschess's WXF2ECCO, LGPL-3.0, not shipped here): every distinct
# game of the shared CCPD sample from the initial position, every line of
# tests/fixtures/lines.tsv, and RANDOM seeded random openings grown from
# those lines (default 20000). Prints each line where the two differ and the
# counts; exits 1 when any differ. Skips, exiting 0, without node or a
# checkout.
#
#   git clone https://github.com/FastLight126/vschess /tmp/vschess
#   crates/xiangqi-ecco/scripts/compare_with_vschess.sh /tmp/vschess [RANDOM]
#
# The ccpd folder is ../shared/testdata/ccpd from the workspace root, or
# $CCPD_DIR.
set -eu
checkout=${1:?usage: compare_with_vschess.sh VSCHESS_CHECKOUT [RANDOM]}
random=${2:-20000}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
ccpd=${CCPD_DIR:-$root/../shared/testdata/ccpd}

if ! command -v node >/dev/null 2>&1; then
    echo "skipped: node is not installed"
    exit 0
fi
if [ ! -f "$checkout/vschess/vschess.function.js" ]; then
    echo "skipped: no vschess checkout at $checkout"
    exit 0
fi

cd "$root"
cargo build --quiet --release -p xiangqi-ecco --example opening_lines
lines=target/release/examples/opening_lines
status=0
if [ -d "$ccpd" ]; then
    echo "== the CCPD sample ($ccpd)"
    "$lines" "$ccpd" | node "$here/vschess_reference.js" "$checkout" || status=1
else
    echo "skipped the CCPD sample: no folder at $ccpd"
fi
echo "== tests/fixtures/lines.tsv"
awk -F'\t' '{ print "lines.tsv\t-\t" $1 "\t" $2 }' crates/xiangqi-ecco/tests/fixtures/lines.tsv |
    node "$here/vschess_reference.js" "$checkout" || status=1
echo "== $random random openings"
"$lines" --random "$random" | node "$here/vschess_reference.js" "$checkout" || status=1
exit $status
