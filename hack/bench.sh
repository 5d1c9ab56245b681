#!/usr/bin/env bash
# hack/bench.sh — whole-process benchmarks of `gwlint check` against the
# floor (read + yaml.v3 Node parse on every core: hack/floor) and kubeconform,
# side by side on the same generated corpora. See docs/performance.md.
#
#   hack/bench.sh                       # small and medium, 5 runs each
#   SIZES="small medium large" hack/bench.sh
#   RUNS=10 METHOD=loop hack/bench.sh   # interleaved /usr/bin/time loop
#
# Environment:
#   SIZES        corpus sizes (small medium large); default "small medium"
#   RUNS         timed runs per command and size; default 5 (large: LARGE_RUNS, default 2)
#   METHOD       hyperfine (default when installed) or loop: runs the commands
#                in turn, floor, gwlint, kubeconform, floor, ..., which is fairer
#                than hyperfine's one-command-at-a-time when the machine is shared
#   KUBECONFORM  kubeconform binary; default: on PATH, else bin/tools/kubeconform,
#                installed with `go install` (v0.8.0) when missing; "none" skips it
#   KUBECONFORM_LARGE=1  also run kubeconform on the large corpus (slow)
#   OUT          results file (markdown); default bin/bench/results.md
#
# Timing is wall-clock (bash's EPOCHREALTIME in the loop, hyperfine's own
# otherwise); ratios are of medians. Peak RSS is /usr/bin/time's
# "Maximum resident set size" (max of 3 runs). Corpora come from the
# benchmarks' cache (internal/corpus, $GWLINT_CORPUS_CACHE or
# $TMPDIR/gwlint-corpus); nothing is committed.
set -euo pipefail
cd "$(dirname "$0")/.."

SIZES=${SIZES:-small medium}
RUNS=${RUNS:-5}
LARGE_RUNS=${LARGE_RUNS:-2}
OUT=${OUT:-bin/bench/results.md}
if [[ -z ${METHOD:-} ]]; then
	if command -v hyperfine >/dev/null; then METHOD=hyperfine; else METHOD=loop; fi
fi
TIME=/usr/bin/time
[[ -x $TIME ]] || { echo "bench.sh: needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 2; }

mkdir -p bin/bench bin/tools
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "building bin/gwlint, bin/floor, bin/gencorpus" >&2
# Static, as the release and the Makefile build it (see the Makefile's NOCGO).
CGO_ENABLED=0 go build -trimpath -o bin/gwlint ./cmd/gwlint
go build -trimpath -tags gwlintdev -o bin/floor ./hack/floor
go build -trimpath -tags gwlintdev -o bin/gencorpus ./internal/corpus/cmd/gencorpus

KC=${KUBECONFORM:-}
if [[ -z $KC ]]; then
	if command -v kubeconform >/dev/null; then
		KC=$(command -v kubeconform)
	elif [[ -x bin/tools/kubeconform ]] || GOBIN=$PWD/bin/tools go install github.com/yannh/kubeconform/cmd/kubeconform@v0.8.0 >&2; then
		KC=$PWD/bin/tools/kubeconform
	else
		echo "bench.sh: kubeconform unavailable, skipping it" >&2
		KC=none
	fi
fi
if [[ $KC != none ]]; then
	go run -tags gwlintdev ./resolve/crd/internal/gen/cmd/kubeconform-schemas -out bin/bench/kubeconform-schemas >&2
	KC_SCHEMAS="$PWD/bin/bench/kubeconform-schemas/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json"
fi

cores=$(nproc)
{
	echo "# hack/bench.sh results"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); commit: $(git describe --always --dirty 2>/dev/null || echo unknown)"
	echo "- machine: $cores cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(free -g | awk '/Mem:/ {print $2}') GiB; $(go version | cut -d' ' -f3)"
	echo "- load average before: $(cut -d' ' -f1-3 /proc/loadavg); method: $METHOD"
	echo
} >"$OUT"

median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

declare -A MED
for size in $SIZES; do
	dir=$(bin/gencorpus -size "$size" -cached)
	bytes=$(find "$dir" -type f \( -name '*.yaml' -o -name '*.yml' -o -name '*.json' \) -printf '%s\n' | awk '{s+=$1} END {print s}')
	files=$(find "$dir" -type f \( -name '*.yaml' -o -name '*.yml' -o -name '*.json' \) | wc -l)
	runs=$RUNS
	[[ $size == large ]] && runs=$LARGE_RUNS
	names=(floor gwlint)
	cmds=("bin/floor $dir" "bin/gwlint check --no-config $dir")
	if [[ $KC != none && ($size != large || ${KUBECONFORM_LARGE:-} == 1) ]]; then
		names+=(kubeconform)
		cmds+=("$KC -n $cores -summary -schema-location $KC_SCHEMAS $dir")
	fi
	echo "== $size: $files files, $bytes bytes ($dir)" >&2

	# Wall time per command.
	declare -A wall=()
	if [[ $METHOD == hyperfine ]]; then
		hyperfine -N -i --warmup 1 --runs "$runs" --export-csv "$work/hf.csv" "${cmds[@]}" >&2
		# command,mean,stddev,median,user,system,min,max
		for i in "${!names[@]}"; do
			wall[${names[$i]}]=$(awk -F, -v n=$((i + 2)) 'NR==n {print $4}' "$work/hf.csv")
		done
	else
		for i in "${!names[@]}"; do "${cmds[$i]%% *}" >/dev/null 2>&1 || true; done # warm-up (binary only)
		for ((r = 0; r < runs; r++)); do
			for i in "${!names[@]}"; do
				start=$EPOCHREALTIME # microseconds; GNU time's %e has only 10 ms
				${cmds[$i]} >/dev/null 2>&1 || true
				awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN {printf "%.6f\n", b-a}' >>"$work/wall.${names[$i]}"
			done
		done
		for n in "${names[@]}"; do wall[$n]=$(median <"$work/wall.$n"); rm -f "$work/wall.$n"; done
	fi

	# Peak RSS (max of 3) and CPU time (median of 3) per command.
	declare -A rss=() cpu=()
	for i in "${!names[@]}"; do
		: >"$work/rss"; : >"$work/cpu"
		for r in 1 2 3; do
			$TIME -f '%M %U %S' -o "$work/t" ${cmds[$i]} >/dev/null 2>&1 || true
			tail -1 "$work/t" | awk '{print $1 >> "'"$work/rss"'"; print $2+$3 >> "'"$work/cpu"'"}'
		done
		rss[${names[$i]}]=$(sort -g "$work/rss" | tail -1)
		cpu[${names[$i]}]=$(median <"$work/cpu")
	done

	{
		echo "## $size corpus: $files files, $(awk -v b="$bytes" 'BEGIN {printf "%.1f", b/1e6}') MB"
		echo
		echo "| command | wall (median of $runs) | x-floor | CPU user+sys | peak RSS | RSS / corpus bytes |"
		echo "|---|---:|---:|---:|---:|---:|"
		for n in "${names[@]}"; do
			awk -v n="$n" -v w="${wall[$n]}" -v f="${wall[floor]}" -v c="${cpu[$n]}" -v m="${rss[$n]}" -v b="$bytes" \
				'BEGIN {printf "| %s | %.3f s | %.2f | %.2f s | %.0f MB | %.1f |\n", n, w, w/f, c, m/1024, m*1024/b}'
		done
		echo
	} | tee -a "$OUT"
	MED[$size.floor]=${wall[floor]}
	MED[$size.gwlint]=${wall[gwlint]}
	unset wall rss cpu
done

if [[ -n ${MED[medium.gwlint]:-} && -n ${MED[large.gwlint]:-} ]]; then
	awk -v gl="${MED[large.gwlint]}" -v gm="${MED[medium.gwlint]}" -v fl="${MED[large.floor]}" -v fm="${MED[medium.floor]}" \
		'BEGIN {printf "Growth medium → large (10x the routes): gwlint %.2fx (target ≤ 11), floor %.2fx\n\n", gl/gm, fl/fm}' | tee -a "$OUT"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT"
echo "results in $OUT" >&2
