#!/usr/bin/env bash
# The project's one test command. On a fresh Debian machine it installs the
# system packages the tests need (as root, with apt-get), then checks
# formatting, vets, runs every test and runs each benchmark once.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  # exec's drivers, evolve/nsga2's side-by-side run
  python3-pytest python3-deap python3-venv junit4 junit5 libhamcrest-java
  # mutate: Maven offline from Debian's repository, JaCoCo for per-test coverage
  maven maven-debian-helper libmaven-compiler-plugin-java libsurefire-java
  libmaven-resources-plugin-java libmaven-jar-plugin-java libjacoco-java
  # ClassEval's solutions (ctxbug, adapt/bench/classeval)
  python3-numpy python3-pandas python3-docx python3-openpyxl python3-gensim python3-bs4
  python3-pil python3-nltk python3-pypdf2 python3-reportlab
  # GeneBench's API operators (evolve/transform)
  python3-scipy python3-sklearn python3-cryptography python3-dateutil
  # GitChameleon's libraries for the system provider (versioned). Not python3-torch (18
  # problems; 167 packages, 131 MiB to download, 549 MiB installed): where it is installed,
  # TestSystemAllLibraries runs and checks its problems too.
  python3-sympy python3-flask python3-falcon python3-networkx python3-jinja2 python3-tornado
  python3-django python3-matplotlib python3-seaborn python3-plotly python3-tqdm
  mitmproxy python3-geopandas python3-rtree
  # the HTML report's browser test (adapt), headless
  chromium
)
# What the test command itself stands up, which the code under test does
# not use (so examples/scaleout's image, which mirrors the list above,
# leaves these out).
infra=(
  # examples/scaleout's TestSlurmArray: a one-node Slurm cluster the test
  # starts and stops itself
  slurm-wlm munge
  # the cgroup-v2 guest (internal/testenv, scripts/cgroup2-guest.sh): QEMU, and
  # what builds its image from Debian's packages (the guest's kernel and
  # systemd come from the archive into the image, not onto this machine)
  qemu-system-x86 mmdebstrap busybox-static e2fsprogs
)
missing=()
for p in "${packages[@]}" "${infra[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

unformatted=$(git ls-files -co --exclude-standard '*.go' | grep -v '/testdata/' | xargs gofmt -l)
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
# The cgroup-v2 guest's image (internal/testenv's TestCgroup2Guest) is built
# once per machine and cached. On a fresh machine that is minutes (3.5 and
# 11 here, beside other work at load 40-50) of which well under a minute is
# CPU (33-38 s): most of it waits for Debian's archive and the disk.
# Started here, it overlaps vet and the tests' builds, and the guest's test,
# late in the tests' run, finds the image built instead of building it at
# the end of the critical path. The script's lock makes the test wait for
# this build rather than start another; if this one failed, the test
# builds it again and fails with its own message. In a session of its own,
# so that an early exit (a vet error) stops the whole build.
guest=""
guest_log=$(mktemp)
stop_guest() {
  if [ -n "$guest" ]; then
    kill -- -"$guest" 2>/dev/null || true
    wait "$guest" 2>/dev/null || true
  fi
}
trap 'stop_guest; rm -f "$guest_log"' EXIT
if [ "$(id -u)" = 0 ] && command -v mmdebstrap >/dev/null; then
  setsid scripts/cgroup2-guest.sh image >"$guest_log" 2>&1 &
  guest=$!
fi
# The published datasets: $ADAPTBENCH_DATA, shared/data above the checkout,
# or fetched once into the user's cache (scripts/datasets.sh says where).
# shellcheck source=scripts/datasets.sh
. scripts/datasets.sh
adaptbench_datasets .
# A CI host lacking the sandbox, a toolchain or the published datasets fails
# instead of skipping (exectest.SkipWithout, testenv.DataPath).
export ADAPTBENCH_REQUIRE_SANDBOX=1 ADAPTBENCH_REQUIRE_DATA=1
go vet ./...
# Every test, and each benchmark once so that none rots, with -short: a
# benchmark whose workload is large runs a smaller one there with the same
# checks (BenchmarkThroughput: one sample per HumanEval task instead of
# five, on 40 tasks; BenchmarkGoMutants and BenchmarkJavaMutants: one
# fragment instead of four; BenchmarkJUnitClassSharing: the machine's
# class-data archives); measure without -short, as in the READMEs. go test
# runs the benchmarks of one package at a time, and with them its tests, so the
# benchmarks have a run of their own beside the tests' run, and the tests of
# evolve, exec and exec/sandbox (whose tests wait more than they compute: sleeps, time
# limits) follow them there, beside the end of the tests' run, when there is
# CPU to spare. The slowest packages go first in each run; both report here,
# and either failing fails the command. Only the packages that have
# benchmarks are built for the benchmarks. (Three packages at once in the
# tests' run from the start saved about 40 s, but twice in five runs a
# test's wall-time guard tripped on the busier machine: one per CPU, go
# test's default, stays in each run.) go vet has checked every package
# above, so go test does not vet them again (-vet=off: about 10 s of CPU
# on a fresh machine), and the test binaries are linked without DWARF
# (-ldflags=-w, as exec.GoTest links the binaries it tests: nothing here
# reads it, and it is some 40% of a link's CPU time).
bench_pkgs=$(grep -rl --include='*_test.go' --exclude-dir=testdata --exclude-dir=.git '^func Benchmark' . | xargs -n1 dirname | sort -u)
mod=$(go list -m)
rest=$(go list ./... | grep -vx -e "$mod/mutate" -e "$mod/mutate/maven" -e "$mod/mutate/gomod" -e "$mod/versioned" -e "$mod/adapt" -e "$mod/evolve/transform" -e "$mod/evolve" -e "$mod/exec" -e "$mod/exec/sandbox")
gotest=(go test -count=1 -vet=off -ldflags=-w)
side_log=$(mktemp)
trap 'stop_guest; rm -f "$guest_log" "$side_log"' EXIT
(
  side=0
  # shellcheck disable=SC2086
  "${gotest[@]}" -short -run '^$' -bench . -benchtime 1x -timeout 30m ./evolve/nsga2 ./mutate $bench_pkgs || side=$?
  "${gotest[@]}" -timeout 40m ./evolve ./exec ./exec/sandbox || side=$?
  exit "$side"
) >"$side_log" 2>&1 &
side=$!
status=0
# shellcheck disable=SC2086
"${gotest[@]}" -timeout 40m ./versioned ./mutate/gomod ./mutate/maven ./adapt ./evolve/transform ./mutate $rest || status=$?
if [ -n "$guest" ] && ! wait "$guest"; then
  echo "the cgroup-v2 guest's image, built ahead of the tests, failed:"; cat "$guest_log"
fi
guest=""
side_status=0
wait "$side" || side_status=$?
if [ "$side_status" = 0 ]; then
  grep -E '^(Benchmark|ok)' "$side_log"
else
  cat "$side_log"
  status=$side_status
fi
exit "$status"
