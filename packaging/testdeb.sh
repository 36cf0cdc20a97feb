#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# CTest package.deb: cpack -G DEB, check the package, extract it with dpkg -x and run the binary from there.
#   sh testdeb.sh BUILD_DIR SCRATCH_DIR VERSION
set -eu
build=$1
scratch=$2
version=$3
rm -rf "$scratch"
mkdir -p "$scratch"
cd "$scratch"

cpack -G DEB --config "$build/CPackConfig.cmake" -B "$scratch/out" >cpack.log 2>&1 || { cat cpack.log; exit 1; }
deb=$(ls out/*.deb)
echo "package: $deb ($(wc -c <"$deb") bytes)"

dpkg-deb -c "$deb" | awk '{print $NF}' >contents.txt
for file in ./usr/bin/clusterplanner ./usr/share/clusterplanner/gpus.json \
    ./usr/share/clusterplanner/scenarios/llama3-70b-256-h100.cplan.json \
    ./usr/share/applications/clusterplanner.desktop ./usr/share/metainfo/clusterplanner.metainfo.xml \
    ./usr/share/icons/hicolor/scalable/apps/clusterplanner.svg; do
    grep -qx "$file" contents.txt || { echo "missing from the package: $file"; exit 1; }
done

depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for dependency in libqt6widgets6 libqt6core6 libsqlite3-0 qt6-qpa-plugins; do
    echo "$depends" | grep -q "$dependency" || { echo "Depends lacks $dependency"; exit 1; }
done

dpkg -x "$deb" root
binary="$scratch/root/usr/bin/clusterplanner"
"$binary" --version | grep -q "$version" || { echo "--version does not print $version"; exit 1; }
# The application seeds a new library from ../share/clusterplanner/scenarios next to the extracted binary (the
# command line never creates a seeded library: README, "library").
QT_QPA_PLATFORM=offscreen "$binary" --library "$scratch/library.sqlite" --screenshot "$scratch/first-start.png" \
    >/dev/null 2>&1 || { echo "the extracted application did not start offscreen"; exit 1; }
"$binary" library list --db "$scratch/library.sqlite" >list.txt
grep -q "Llama" list.txt || { echo "the extracted package did not find its sample scenarios:"; cat list.txt; exit 1; }
"$binary" catalog --json | grep -q "H100" || { echo "catalog --json printed no H100"; exit 1; }
echo "package ok"
