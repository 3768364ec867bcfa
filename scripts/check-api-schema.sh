#!/usr/bin/env bash
# CI: the admin UI's typed client (web/src/api/schema.d.ts) matches the server's OpenAPI
# document. A route or schema changed without `npm run api:generate` fails here.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run --silent api:generate >/dev/null
if ! git diff --exit-code --stat -- web/src/api/schema.d.ts; then
  echo 'web/src/api/schema.d.ts is out of date: run npm run api:generate and commit it' >&2
  exit 1
fi
echo 'web/src/api/schema.d.ts matches the OpenAPI document'
