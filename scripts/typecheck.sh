#!/usr/bin/env sh
# The two type checks (the Node code; the viewer's browser code, with the DOM's types) run side by side:
# each tsc is single-threaded, so on two cores this takes the longer one's time, not the sum (pnpm test's
# time target). Fails if either fails; a signal to this script stops both.
tsc --noEmit -p src/view/web/tsconfig.json &
web=$!
tsc --noEmit -p tsconfig.json &
node=$!
trap 'kill "$web" "$node" 2>/dev/null; exit 143' INT TERM
wait "$node"
node=$?
wait "$web"
web=$?
[ "$node" -eq 0 ] && [ "$web" -eq 0 ]
