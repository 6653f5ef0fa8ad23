#!/usr/bin/env bash
# Runs supabase-js's storage-js test suite, unchanged but for the server addresses,
# against local stacks on a throwaway native PostgreSQL. Development only.
#   scripts/conformance/storage-js.sh <supabase-js checkout> [project folder]
# Prints each test file's counts and a closing "N passed, N failed" for the
# tests that reach the server. See README ("Conformance with supabase-js").
set -euo pipefail
checkout="${1:?usage: $0 <supabase-js checkout> [project folder]}"
checkout="$(cd "$checkout" && pwd)"
project="${2:-$(cd "$(dirname "$0")/../.." && pwd)}"
cd "$project"
exec node_modules/.bin/tsx scripts/conformance/run.ts storage-js "$checkout"
