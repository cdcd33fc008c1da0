#!/bin/bash
# The small agent: schedrig-agent is a static program (no ELF interpreter,
# so nothing else to pack or copy) that says its agent protocol; the
# initramfs of a hackbench + cyclictest plan (Debian's 6.1 kernel, the job
# `schedrig lava-job` writes) is at most 5 MiB, its /init is the agent
# (a link to /bin/schedrig-agent) and it holds no shell (no load needs
# one). Before, the agent was the whole schedrig with its libraries: 30 MB.
# An agent beside schedrig that speaks another protocol, or none there, is
# refused before anything is packed, naming both versions.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/debkernel.bash"

AGENT=$(dirname "$SCHEDRIG")/schedrig-agent
[ -x "$AGENT" ] || fail "no schedrig-agent beside $SCHEDRIG"
# make SANITIZE=1 links it dynamically (ASan's runtime is not static): then
# it is checked to link none of the host's libraries, and its size is not.
sanitized=0
if ldd "$AGENT" 2>/dev/null | grep -q libasan; then
	sanitized=1
	! ldd "$AGENT" | grep -E 'libsqlite3|libcurl|libgsl' ||
		fail "schedrig-agent links a library of the host side"
else
python3 - "$AGENT" <<'PY' || fail "schedrig-agent is not a static program"
import struct, sys
with open(sys.argv[1], "rb") as f:
    elf = f.read()
assert elf[:4] == b"\x7fELF" and elf[4] == 2, "not a 64-bit ELF file"
phoff, = struct.unpack_from("<Q", elf, 0x20)
phentsize, phnum = struct.unpack_from("<HH", elf, 0x36)
types = [struct.unpack_from("<I", elf, phoff + i * phentsize)[0] for i in range(phnum)]
assert 3 not in types, "it has a PT_INTERP: a dynamic program"
PY
fi
assert_eq "$("$AGENT" version)" "schedrig-agent $("$SCHEDRIG" version | awk '{print $2}') (agent protocol 3)" \
	"schedrig-agent version"

PKG=$(deb_kernel 6.1)
mkdir -p "$WORK/art"
cat >"$WORK/hc.yaml" <<EOF
name: small
iterations: 1
labs:
  here: {url: "http://127.0.0.1:9", artifacts: {dir: $WORK/art, url: "file://$WORK/art"}}
variants:
  - {name: v61, boot: lava, lab: here, device_type: qemu, kernel: $PKG}
loads:
  - {name: hackbench, tool: hackbench, role: background, repeat: true,
     params: {mode: process, ipc: pipe, groups: 1, loops: 1000}}
  - {name: cyclictest, tool: cyclictest, params: {threads: 1, interval_us: 1000, duration_s: 2}}
EOF
"$SCHEDRIG" lava-job "$WORK/hc.yaml" v61 >"$WORK/job.yaml" 2>"$WORK/err" || fail "lava-job: $(cat "$WORK/err")"
cpio=$(ls "$WORK"/art/*/initramfs.cpio)
size=$(stat -c %s "$cpio")
echo "initramfs of a hackbench + cyclictest plan: $size bytes"
[ "$sanitized" = 1 ] || [ "$size" -le $((5 * 1024 * 1024)) ] ||
	fail "the initramfs is $size bytes, over 5 MiB"
# The archive's entries (newc: 110-byte headers, names and data padded to 4).
python3 - "$cpio" >"$WORK/entries" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
off = 0
while off < len(d):
    h = d[off:off + 110]
    assert h[:6] == b"070701", "not a newc archive"
    mode, size, namesize = (int(h[6 + 8 * k:14 + 8 * k], 16) for k in (1, 6, 11))
    name = d[off + 110:off + 110 + namesize - 1].decode()
    off = (off + 110 + namesize + 3) & ~3
    data = d[off:off + size]
    off = (off + size + 3) & ~3
    if name == "TRAILER!!!":
        break
    kind = {0o120000: "link", 0o100000: "file", 0o040000: "dir"}.get(mode & 0o170000, "other")
    print(name, kind, data.decode() if kind == "link" else "")
PY
assert_contains "$(cat "$WORK/entries")" "init link /bin/schedrig-agent" "/init is the agent"
grep -q '^bin/schedrig-agent file' "$WORK/entries" || fail "no /bin/schedrig-agent in the initramfs"
! grep -q '^bin/sh ' "$WORK/entries" || fail "a shell in a guest no load of which needs one"
! grep -q '^bin/schedrig ' "$WORK/entries" || fail "the whole schedrig in the initramfs"

# An agent of another protocol beside schedrig, then none: refused.
mkdir "$WORK/bin"
cp "$SCHEDRIG" "$WORK/bin/schedrig"
printf '#!/bin/sh\necho "schedrig-agent 0.0.9 (agent protocol 1)"\n' >"$WORK/bin/schedrig-agent"
chmod +x "$WORK/bin/schedrig-agent"
rc=0
"$WORK/bin/schedrig" lava-job "$WORK/hc.yaml" v61 >/dev/null 2>"$WORK/err" || rc=$?
assert_eq "$rc" 1 "an agent of protocol 1: exit status"
assert_contains "$(cat "$WORK/err")" "$WORK/bin/schedrig-agent speaks agent protocol 1 (schedrig-agent 0.0.9), this schedrig speaks 3 (schedrig" \
	"an agent of protocol 1"
rm "$WORK/bin/schedrig-agent"
rc=0
"$WORK/bin/schedrig" lava-job "$WORK/hc.yaml" v61 >/dev/null 2>"$WORK/err" || rc=$?
assert_eq "$rc" 1 "no agent: exit status"
assert_contains "$(cat "$WORK/err")" "$WORK/bin/schedrig-agent: No such file or directory (schedrig-agent is built" \
	"no agent"
exit 0
