#!/usr/bin/env bash
# Instructions per action of `roses bench`, counted by valgrind's callgrind: the same count at
# every run of the same code, interpreter and arguments, however busy the machine is (the
# seconds of `roses bench` are not: this machine is shared). Compare two versions of the code
# with the same interpreter and arguments.
#
#   bench/instructions.sh [-p PYTHON] [-C DIR] GAME [roses bench options...] --fixed-games N
#
# -p: the interpreter (default: .venv/bin/python, else python3); -C: the checkout to measure
# (default: this one; another version: `git worktree add DIR COMMIT`). The bench runs twice
# under callgrind, with --fixed-games N and with --fixed-games 0, so that starting Python and
# importing the code are not counted; it prints the instructions per action of the N games.
# String hashing is seeded the same at every run (PYTHONHASHSEED=0): the order of sets of
# strings, and so the count, would otherwise change a little from run to run.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
py=""
dir="$here"
while getopts "p:C:" opt; do
  case "$opt" in
    p) py="$OPTARG" ;;
    C) dir="$(cd "$OPTARG" && pwd)" ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ -z "$py" ]; then
  if [ -x "$here/.venv/bin/python" ]; then py="$here/.venv/bin/python"; else py="python3"; fi
fi
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is needed (apt-get install valgrind)" >&2; exit 1; }
args=("$@")
n=""
for ((i = 0; i < ${#args[@]}; i++)); do
  if [ "${args[$i]}" = "--fixed-games" ]; then n="${args[$((i + 1))]:-}"; zero=("${args[@]}"); zero[$((i + 1))]=0; fi
done
[ -n "$n" ] || { echo "instructions.sh: give --fixed-games N" >&2; exit 2; }

count() {  # prints "<instructions> <json of the bench>"
  local out
  out=$(cd "$dir" && PYTHONHASHSEED=0 PYTHONPATH="$dir" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$py" -m roses.cli bench "$@" --json 2>&1)
  echo "$(echo "$out" | sed -n 's/.*Collected : \([0-9]*\).*/\1/p') $(echo "$out" | grep '^{')"
}
read -r base _ < <(count "${zero[@]}")
read -r total json < <(count "${args[@]}")
"$py" - "$base" "$total" "$json" "$dir" <<'PY'
import json, sys
base, total, out, where = int(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3]), sys.argv[4]
actions = out["actions"]
print(json.dumps({"checkout": where, "game": out["game"], "scenario": out["scenario"],
                  "views": out.get("views", False), "games": out["games"], "actions": actions,
                  "instructions_per_action": round((total - base) / actions),
                  "python": out["python"], "python_executable": out["python_executable"]}))
PY
