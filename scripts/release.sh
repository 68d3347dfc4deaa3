#!/usr/bin/env bash
# Builds lore's release artifacts for linux and darwin on amd64 and arm64,
# reproducibly: the same commit, Go version and C compiler give the same
# bytes. One command, from anywhere in the checkout:
#
#   scripts/release.sh                 # every target this machine can build
#   VERSION=0.1.0 scripts/release.sh   # name the release (default: the tag on HEAD, else 0.0.0-dev)
#   TARGETS="linux/amd64" scripts/release.sh
#   STRICT=1 scripts/release.sh        # fail unless every target was built
#
# Output in dist/ (or $OUT): per target lore_<version>_<os>_<arch>/lore, the
# same as a .tar.gz and as an MCP Bundle (.mcpb), then SHA256SUMS and the
# server.json to publish to the MCP Registry. docs/release.md explains it.
#
# lore uses cgo (tree-sitter grammars), so each target needs a C compiler
# for it. The script looks for one and says plainly which targets it cannot
# build here and why; it never downloads a toolchain.
set -euo pipefail

cd "$(dirname "$0")/.."
OUT=${OUT:-dist}
TARGETS=${TARGETS:-"linux/amd64 linux/arm64 darwin/amd64 darwin/arm64"}
if [[ -z ${VERSION:-} ]]; then
	VERSION=$(git describe --tags --exact-match 2>/dev/null || true)
	VERSION=${VERSION:-0.0.0-dev}
fi
VERSION=${VERSION#v}

# Every file's time comes from the commit, not the clock.
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 315532800)}
export SOURCE_DATE_EPOCH

# GNU tar (gtar on macOS) for a sorted, time-fixed archive.
TAR=$(command -v gtar || command -v tar)
sha256() { if command -v sha256sum >/dev/null; then sha256sum "$@"; else shasum -a 256 "$@"; fi; }

host_os=$(go env GOHOSTOS)
host_arch=$(go env GOHOSTARCH)

# cc_for OS ARCH prints the C compiler for the target, or returns 1 after
# printing why there is none.
cc_for() {
	local os=$1 arch=$2
	local gnu=${arch/amd64/x86_64}
	gnu=${gnu/arm64/aarch64}
	case $os in
	linux)
		if [[ $host_os == linux && $host_arch == "$arch" ]] && command -v "${CC:-gcc}" >/dev/null; then
			echo "${CC:-gcc}"
		elif command -v "$gnu-linux-gnu-gcc" >/dev/null; then
			echo "$gnu-linux-gnu-gcc"
		elif command -v zig >/dev/null; then
			echo "zig cc -target $gnu-linux-gnu"
		else
			echo "no C compiler for linux/$arch: install $gnu-linux-gnu-gcc (Debian: apt-get install gcc-${gnu//_/-}-linux-gnu) or zig"
			return 1
		fi
		;;
	darwin)
		if [[ $host_os == darwin ]] && command -v clang >/dev/null; then
			echo "clang -arch ${gnu/aarch64/arm64}"
		elif command -v "o64-clang" >/dev/null && [[ $arch == amd64 ]]; then
			echo "o64-clang"
		elif command -v "oa64-clang" >/dev/null && [[ $arch == arm64 ]]; then
			echo "oa64-clang"
		elif command -v zig >/dev/null; then
			echo "zig cc -target $gnu-macos"
		else
			echo "no C compiler for darwin/$arch: build on macOS (Xcode command line tools), or install osxcross (o64-clang/oa64-clang, needs a macOS SDK) or zig"
			return 1
		fi
		;;
	*)
		echo "unsupported target $os/$arch"
		return 1
		;;
	esac
}

# The flags every build shares: no paths of this machine (-trimpath), no
# symbol tables or build ids (-s -w -buildid=), the version from VCS stamping.
# Linux binaries are static (pure-Go DNS and user lookups), so they run on
# any glibc or musl system.
ldflags_for() {
	local flags="-s -w -buildid="
	[[ $1 == linux ]] && flags+=" -extldflags=-static"
	echo "$flags"
}

mkdir -p "$OUT"
built=() skipped=()
for target in $TARGETS; do
	os=${target%/*} arch=${target#*/}
	name=lore_${VERSION}_${os}_${arch}
	if ! cc=$(cc_for "$os" "$arch"); then
		skipped+=("$target: $cc")
		echo "skip  $target: $cc" >&2
		continue
	fi
	tags=""
	[[ $os == linux ]] && tags="netgo,osusergo"
	echo "build $target with CC=\"$cc\"" >&2
	rm -rf "${OUT:?}/$name"
	mkdir -p "$OUT/$name"
	if ! CGO_ENABLED=1 GOOS=$os GOARCH=$arch CC=$cc \
		go build -trimpath -buildvcs=true -tags "$tags" -ldflags "$(ldflags_for "$os")" \
		-o "$OUT/$name/lore" ./cmd/lore 2> >(grep -v -e 'warning: null character' -e '^ *[0-9]* | ' -e '^ *| *\^' -e '^# github.com/smacker' >&2); then
		skipped+=("$target: the build failed with CC=\"$cc\"")
		rm -rf "${OUT:?}/$name"
		continue
	fi
	touch -d "@$SOURCE_DATE_EPOCH" "$OUT/$name/lore" "$OUT/$name"
	"$TAR" --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner \
		-C "$OUT" -cf - "$name" | gzip -n -9 >"$OUT/$name.tar.gz"
	built+=("$target")
done

if ((${#built[@]} > 0)); then
	go run ./scripts/mcpb -version "$VERSION" -dist "$OUT" -server-json server.json
	(cd "$OUT" && sha256 -- *.tar.gz *.mcpb */lore >SHA256SUMS)
fi

echo
echo "lore $VERSION in $OUT/:"
for t in "${built[@]}"; do echo "  built    $t"; done
for s in "${skipped[@]}"; do echo "  NOT BUILT $s"; done
if ((${#built[@]} > 0)); then
	echo
	cat "$OUT/SHA256SUMS"
fi
if ((${#built[@]} == 0)) || { [[ -n ${STRICT:-} ]] && ((${#skipped[@]} > 0)); }; then
	exit 1
fi
