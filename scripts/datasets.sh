# Sourced by scripts/test.sh: finds the published datasets the tests read,
# or fetches them. adaptbench_datasets ROOT leaves $ADAPTBENCH_DATA as it
# is when it is set, and uses shared/data when ROOT or a directory above
# it holds one (as internal/testenv finds it); else it fetches the
# datasets at their pinned commits, every file checked against its
# SHA-256 (go run ./examples/datasets), into the user's cache, once, says
# where they went and exports ADAPTBENCH_DATA. $ADAPTBENCH_DATASETS_MIRROR
# names local mirrors to read instead of the network (-mirror).
adaptbench_datasets() {
  local root=$1 dir
  if [ -n "${ADAPTBENCH_DATA:-}" ]; then
    return 0
  fi
  dir=$(cd "$root" && pwd)
  while :; do
    if [ -d "$dir/shared/data" ]; then
      return 0
    fi
    [ "$dir" = / ] && break
    dir=$(dirname "$dir")
  done
  dir="${XDG_CACHE_HOME:-$HOME/.cache}/adaptbench/data"
  if [ ! -e "$dir/.complete" ]; then
    echo "datasets: neither \$ADAPTBENCH_DATA nor shared/data above $root: fetching the published datasets into $dir (every file checked)"
    if ! (cd "$root" && go run ./examples/datasets -out "$dir" ${ADAPTBENCH_DATASETS_MIRROR:+-mirror "$ADAPTBENCH_DATASETS_MIRROR"}); then
      echo "datasets: the fetch failed (no network? set ADAPTBENCH_DATA to a copy, or ADAPTBENCH_DATASETS_MIRROR to local mirrors)" >&2
      return 1
    fi
    touch "$dir/.complete"
  fi
  export ADAPTBENCH_DATA=$dir
  echo "datasets: reading them from $dir (ADAPTBENCH_DATA=$dir)"
}
