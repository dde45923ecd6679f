#!/usr/bin/env bash
# Runs before `npm test` (npm's pretest): llama.cpp's llama-server and llama-quantize for the
# real-engine tests, built once into the XDG cache (8-15 min on 2 cores, progress on stderr) and
# reused after, which it says in one line. Without cmake, g++, git or tar it says what is missing
# and the tests go on: those tests skip, each saying why. A build that fails fails `npm test`.
# SERVELAB_REQUIRE_LLAMACPP=1 (CI) makes missing tools an error too, so a skipped real engine
# cannot pass unseen.
set -uo pipefail
cd "$(dirname "$0")/.."
# --cpu: the tests run llama-server on the CPU, also where nvcc is found (a CUDA build is slow and
# needs a GPU to read its architecture from).
node bin/servelab.js engines build llamacpp --cpu >/dev/null
rc=$?
if [ "$rc" -eq 2 ] && [ -z "${SERVELAB_REQUIRE_LLAMACPP:-}" ]; then
  echo "servelab: no llama.cpp build; the real-engine tests will be skipped" >&2
  exit 0
fi
exit "$rc"
