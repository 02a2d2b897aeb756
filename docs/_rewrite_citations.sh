#!/usr/bin/env bash
# Point docstrings and comments at the docs that live in the repository.
#
# Old citations name files outside the repository (THEORY.md, DESIGN.md and the research
# notes research/paper.md, research/ecosystem.md). The mapping (docs/_citations.txt):
#   THEORY §n ...              -> docs/theory.md §n ...  (same section numbers, §1-§6)
#   research/paper.md §3.k     -> docs/theory.md §7.k   (derivations; "paper §3.k" too)
#   research/paper.md §3       -> docs/theory.md §7
#   research/paper.md §4.k     -> docs/theory.md §5.5   (prior results)
#   research/ecosystem.md §n   -> docs/methods.md §n    (same section numbers)
#   DESIGN.md / DESIGN "..."   -> docs/architecture.md / docs/architecture.md "..."
# plus a few phrasings ("THEORY preamble", "THEORY's logits", ...).
#
# Usage:
#   docs/_rewrite_citations.sh [-n] [-v] [ROOT]   rewrite tracked *.py, *.md files under ROOT
#                                                 (default: this repository); -n: dry run
#                                                 (report only), -v: show changed lines
#   docs/_rewrite_citations.sh --filter           rewrite stdin to stdout (for the mapping)
#
# Idempotent: no replacement text matches any pattern, so a second run changes nothing.
# Prints every file it changes with the number of changed lines, then a total.
set -euo pipefail

# Order matters: the more specific paper.md rules come before the general ones.
RULES=(
  -e 's#(research/)?paper\.md §3\.([1-7])#docs/theory.md §7.\2#g'
  -e 's#(research/)?paper\.md §3([^.0-9]|$)#docs/theory.md §7\2#g'
  -e 's#(research/)?paper\.md §4\.[0-9]+#docs/theory.md §5.5#g'
  -e 's#(^|[^/a-z])paper §3\.([1-7])#\1docs/theory.md §7.\2#g'
  -e 's#(^|[^/a-z])paper §3([^.0-9]|$)#\1docs/theory.md §7\2#g'
  -e 's#(research/)?ecosystem\.md#docs/methods.md#g'
  -e 's#THEORY §#docs/theory.md §#g'
  -e 's#THEORY preamble#docs/theory.md, introduction#g'
  -e 's#THEORY ``hebbian``#docs/theory.md §5.5 ``hebbian``#g'
  -e 's#THEORY section ([0-9])#docs/theory.md section \1#g'
  -e 's#THEORY orientation#docs/theory.md orientation#g'
  -e "s#THEORY's logits are#The logits of docs/theory.md §3.2 are#g"
  -e "s#THEORY's matrices have columns#the matrices of docs/theory.md have columns#g"
  -e "s#\`THEORY\.md\` of the project's shared folder#\`docs/theory.md\`#g"
  -e 's#DESIGN\.md#docs/architecture.md#g'
  -e 's#DESIGN "#docs/architecture.md "#g'
  -e 's#DESIGN Controls#docs/architecture.md "Controls"#g'
  -e 's#\(DESIGN:#(docs/architecture.md:#g'
)

if [[ "${1:-}" == "--filter" ]]; then
  exec sed -E "${RULES[@]}"
fi

dry=0 verbose=0
while [[ $# -gt 0 && "$1" == -* ]]; do
  case "$1" in
    -n) dry=1 ;;
    -v) verbose=1 ;;
    *) echo "_rewrite_citations.sh: unknown option $1 (use -n, -v or --filter)" >&2; exit 2 ;;
  esac
  shift
done
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
[[ -d "$root/theorycheck" ]] || { echo "_rewrite_citations.sh: $root has no theorycheck/ package; give the repository root" >&2; exit 2; }
cd "$root"

# The new docs and this mapping are the targets, never rewritten.
skip='^docs/(theory|methods|architecture)\.md$|^docs/_citations\.txt$|^docs/_rewrite_citations\.sh$'
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  list() { git ls-files -- '*.py' '*.md'; }
else
  list() { find . -path ./.git -prune -o -type f \( -name '*.py' -o -name '*.md' \) -print | sed 's#^\./##' | sort; }
fi

files=0 lines=0
tmp="$(mktemp)"
trap 'rm -f "$tmp"' EXIT
while IFS= read -r f; do
  [[ "$f" =~ $skip ]] && continue
  sed -E "${RULES[@]}" "$f" >"$tmp"
  if ! cmp -s "$f" "$tmp"; then
    n=$(diff "$f" "$tmp" | grep -c '^>' || true)
    files=$((files + 1)); lines=$((lines + n))
    echo "$f: $n line(s)"
    if [[ $verbose == 1 ]]; then diff "$f" "$tmp" | grep '^[<>]' | sed 's/^/    /'; fi
    if [[ $dry == 0 ]]; then cat "$tmp" >"$f"; fi
  fi
done < <(list)
echo "$( [[ $dry == 1 ]] && echo 'would change' || echo 'changed' ) $lines line(s) in $files file(s)"
