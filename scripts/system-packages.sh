#!/usr/bin/env bash
# The Debian packages the test suite needs beyond Python's, installed where missing (as root, or
# through sudo): Chromium for the browser tests (its headless shell for most, the full browser
# for the notifications), a Hangul font (fonts-noto-cjk, found by
# fontconfig's fc-list) for their Korean pages, node and npm for the TypeScript client check and
# axe-core, GNU gettext's msgfmt for the message catalogues, and PgBouncer, which the
# integration and scale-out tests start in front of PostgreSQL themselves (Debian's package
# installs a system service too, which they do not use). `make system-packages` runs it;
# .ci/run does too. PostgreSQL and Redis are services of their own (README: Tests).
set -o errexit -o pipefail -o nounset

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromium-headless-shell >/dev/null 2>&1 || missing+=(chromium-headless-shell)
command -v fc-list >/dev/null 2>&1 || missing+=(fontconfig)
hangul="$(fc-list :lang=ko family 2>/dev/null || true)"
if [[ "$hangul" != *"Noto Sans CJK KR"* ]]; then
  missing+=(fonts-noto-cjk)
fi
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
command -v msgfmt >/dev/null 2>&1 || missing+=(gettext)
command -v pgbouncer >/dev/null 2>&1 || [ -x /usr/sbin/pgbouncer ] || missing+=(pgbouncer)

if [ "${#missing[@]}" -eq 0 ]; then
  echo "system packages: all present"
  exit 0
fi

as_root=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "system packages missing: ${missing[*]}; as root run:" >&2
    echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  as_root=(sudo)
fi
echo "system packages: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
