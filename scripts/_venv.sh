# Sourced by scripts/*: make sure .venv exists and holds the project (editable) with its test tools.
# Re-installs only when pyproject.toml changed since the last install, so repeated runs start fast.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PY="${PYTHON:-python3}"
if ! "$PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
    echo "netplay needs Python 3.11 or newer (found: $("$PY" --version 2>&1))" >&2
    exit 2
fi
if [ ! -x "$VENV/bin/python" ]; then
    echo "creating $VENV" >&2
    "$PY" -m venv "$VENV"
fi
STAMP="$VENV/.netplay-installed"
if [ ! -f "$STAMP" ] || [ "$ROOT/pyproject.toml" -nt "$STAMP" ]; then
    echo "installing netplay and its dependencies into $VENV" >&2
    "$VENV/bin/python" -m pip install --quiet --upgrade pip >&2
    "$VENV/bin/python" -m pip install --quiet -e "$ROOT[test]" >&2
    touch "$STAMP"
fi
export PATH="$VENV/bin:$PATH"
