#!/usr/bin/env bash
# Runs supabase-js's supabase-js tests, unchanged but for server addresses and each test
# function's import map, against local stacks. Development only.
#   scripts/conformance/supabase-js.sh <supabase-js checkout> [project folder]
# Prints each test file's counts and a closing "N passed, N failed" for the
# tests that reach the server. See README ("Conformance with supabase-js").
set -euo pipefail
checkout="${1:?usage: $0 <supabase-js checkout> [project folder]}"
checkout="$(cd "$checkout" && pwd)"
project="${2:-$(cd "$(dirname "$0")/../.." && pwd)}"
cd "$project"
exec node_modules/.bin/tsx scripts/conformance/functions.ts supabase-js "$checkout"
