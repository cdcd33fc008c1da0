#!/bin/bash
# schedrig mail: a real SMTP server (Debian python3-aiosmtpd with the handler
# tests/smtp_sink.py) on a free 127.0.0.1 port receives the message; its body
# equals the composed one (--output) byte for byte (CRLF on the wire, LF in
# the file), headers parse with python's email module, In-Reply-To is set; a
# UTF-8 variant name; a table line one octet over 998 is refused; a subject
# and names of thousands of octets are folded or encoded, never a line over
# 998. Exit
# status 2 for bad options and values (before the database is read; also
# --smtp-user with no password in the environment or ~/.netrc), 1 when the
# work fails (no server listening, TLS refused).
source "$(dirname "$0")/lib.sh"
DATA=$(cd "$(dirname "$0")/../data" && pwd)
TESTS_PY=$(cd "$(dirname "$0")/.." && pwd)
DB=$WORK/m.db

# The Debian python3 carries aiosmtpd; a python3 earlier in PATH may not.
PY=python3
python3 -c 'import aiosmtpd' 2>/dev/null || PY=/usr/bin/python3
"$PY" -c 'import aiosmtpd' || fail "python3-aiosmtpd is not installed (scripts/install-deps)"

PORT=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$WORK/inbox"
PYTHONPATH=$TESTS_PY "$PY" -m aiosmtpd -n -l "127.0.0.1:$PORT" -c smtp_sink.Sink "$WORK/inbox" \
	>"$WORK/smtpd.log" 2>&1 &
SMTPD=$!
trap 'kill $SMTPD 2>/dev/null; wait $SMTPD 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 100); do
	"$PY" -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' "$PORT" \
		2>/dev/null && break
	sleep 0.1
done

# A UTF-8 variant name next to the ones of the dbench data.
sed 's/,5\.15\.0-rc1-vanilla,/,v6.10-rc1_sched_ext-cafè-ü,/' "$DATA/dbench.csv" >"$WORK/utf8.csv"
"$SCHEDRIG" import --csv "$WORK/utf8.csv" --run dbench-utf8 --db "$DB" >/dev/null

args=(--db "$DB" dbench-utf8 --from 'Schedrig Rig <rig@example.org>' --to 'Jürgen <maint@example.org>'
	--cc list@example.org --subject "Re: [PATCH v2 3/5] sched/eevdf: résultats hackbench for v6.10-rc1_sched_ext, a subject long enough to be folded"
	--in-reply-to '20240601.12345-3-dev@example.org')
"$SCHEDRIG" mail "${args[@]}" --output "$WORK/composed.eml" || fail "mail --output"
"$SCHEDRIG" mail "${args[@]}" --smtp-url "smtp://127.0.0.1:$PORT" >"$WORK/send.out" ||
	fail "mail --smtp-url: $(cat "$WORK/send.out") $(cat "$WORK/smtpd.log")"
assert_contains "$(cat "$WORK/send.out")" "sent to 2 recipient(s)" "send message"
for _ in $(seq 50); do [ -f "$WORK/inbox/msg1.eml" ] && break; sleep 0.1; done
[ -f "$WORK/inbox/msg1.eml" ] || fail "the SMTP server received nothing"

"$PY" - "$WORK/inbox/msg1.eml" "$WORK/inbox/msg1.json" "$WORK/composed.eml" "$SCHEDRIG" "$DB" <<'PY' || fail "received message"
import email, email.policy, json, subprocess, sys
raw = open(sys.argv[1], "rb").read()
env = json.load(open(sys.argv[2]))
composed = open(sys.argv[3], "rb").read()
assert env["mail_from"] == "rig@example.org", env
assert env["rcpt_tos"] == ["maint@example.org", "list@example.org"], env
# Wire form: CRLF everywhere, no bare LF; the file: LF.
assert b"\r\n" in raw and b"\n" not in raw.replace(b"\r\n", b""), "bare LF on the wire"
assert b"\r" not in composed, "CR in the .eml file"
rbody = raw.split(b"\r\n\r\n", 1)[1]
cbody = composed.split(b"\n\n", 1)[1]
assert rbody == cbody.replace(b"\n", b"\r\n"), "received body differs from the composed body"
for line in rbody.split(b"\r\n"):
    assert len(line) <= 998, len(line)
    assert line == line.rstrip(b" \t"), ("trailing white space", line)
# The body holds the compare tables byte for byte, then the provenance.
table = subprocess.run([sys.argv[4], "compare", "--db", sys.argv[5], "dbench-utf8"],
                       check=True, capture_output=True).stdout
assert cbody.startswith(table), "body does not start with the compare output"
assert b"\nProvenance\n" in cbody
assert "v6.10-rc1_sched_ext-cafè-ü".encode() in rbody
# Headers parse.
msg = email.message_from_bytes(raw, policy=email.policy.default)
assert msg["In-Reply-To"] == "<20240601.12345-3-dev@example.org>", msg["In-Reply-To"]
assert msg["References"] == "<20240601.12345-3-dev@example.org>"
assert msg["Subject"] == ("Re: [PATCH v2 3/5] sched/eevdf: résultats hackbench for "
                          "v6.10-rc1_sched_ext, a subject long enough to be folded"), msg["Subject"]
assert msg["To"].addresses[0].display_name == "Jürgen"
assert msg["To"].addresses[0].addr_spec == "maint@example.org"
assert msg["Cc"].addresses[0].addr_spec == "list@example.org"
assert msg["From"].addresses[0].addr_spec == "rig@example.org"
assert msg["Message-ID"].startswith("<") and msg["Message-ID"].endswith("@example.org>")
assert msg["Date"].datetime is not None
assert msg.get_content_type() == "text/plain"
assert msg.get_param("charset") == "utf-8" and msg.get_param("format") == "fixed"
assert msg["Content-Transfer-Encoding"] == "8bit"
assert "v6.10-rc1_sched_ext-cafè-ü" in msg.get_content()
for line in raw.split(b"\r\n\r\n", 1)[0].split(b"\r\n"):
    assert len(line) <= 78, ("header line not folded", line)
PY

# Hostile headers: a subject of one 3000-octet word, a name of one
# 2000-octet word and a name of 1000 words. Written and sent, no line holds
# more than 998 octets (RFC 5322 2.1.1): a long word becomes RFC 2047
# encoded-words (at most 75 octets each), a phrase is folded at its spaces;
# python's email module reads back what was given.
long_subject=$(head -c 3000 /dev/zero | tr '\0' x)
long_name=$(head -c 2000 /dev/zero | tr '\0' y)
words=$(printf 'Ab %.0s' $(seq 999))Ab
hostile=(--db "$DB" dbench-utf8 --from "$long_name <rig@example.org>" --to "$words <m@example.org>"
	--subject "$long_subject")
"$SCHEDRIG" mail "${hostile[@]}" --output "$WORK/hostile.eml" || fail "mail --output, long headers"
"$SCHEDRIG" mail "${hostile[@]}" --smtp-url "smtp://127.0.0.1:$PORT" >/dev/null ||
	fail "mail --smtp-url, long headers: $(cat "$WORK/smtpd.log")"
for _ in $(seq 50); do [ -f "$WORK/inbox/msg2.eml" ] && break; sleep 0.1; done
for f in "$WORK/hostile.eml" "$WORK/inbox/msg2.eml"; do
	"$PY" - "$f" "$long_subject" "$long_name" "$words" <<'PY' || fail "long headers in $f"
import email, email.header, email.policy, email.utils, re, sys
raw = open(sys.argv[1], "rb").read()
for line in raw.replace(b"\r\n", b"\n").split(b"\n"):
    assert len(line) <= 998, ("line over 998 octets", len(line), line[:60])
for word in re.findall(rb"=\?[^?]+\?[BQ]\?[^?]*\?=", raw):
    assert len(word) <= 75, ("encoded-word over 75 octets", word)
msg = email.message_from_bytes(raw, policy=email.policy.default)
assert msg["Subject"] == sys.argv[2], len(msg["Subject"])
# (python's newer parser keeps the white space between the encoded-words
# of a phrase, which RFC 2047 6.2 says to drop; its older one drops it.)
name, addr = email.utils.parseaddr(email.message_from_bytes(raw)["From"])
assert str(email.header.make_header(email.header.decode_header(name))) == sys.argv[3]
assert addr == "rig@example.org"
assert msg["To"].addresses[0].display_name == sys.argv[4]
assert msg["To"].addresses[0].addr_spec == "m@example.org"
PY
done
rm "$WORK/inbox/msg2.eml" "$WORK/inbox/msg2.json"

# --dry-run prints the same message (LF) and sends nothing.
out=$("$SCHEDRIG" mail "${args[@]}" --dry-run)
assert_contains "$out" "Content-Type: text/plain; charset=utf-8; format=fixed" "dry-run headers"
assert_contains "$out" "In-Reply-To: <20240601.12345-3-dev@example.org>" "dry-run In-Reply-To"
[ ! -f "$WORK/inbox/msg2.eml" ] || fail "dry-run sent a message"

# A table exactly at the limit passes, one octet over it is refused.
# Width of a table line = 10 + len(op) + 23 per column; a variant name does
# not widen it, so the op label does: with 3 columns the widest line is
# 10 + len(op) + 69 (the values' rows).
mkcsv() { # OP_LEN RUN
	local op
	op=$(printf 'o%.0s' $(seq "$1"))
	{
		echo "run,variant,cell,load,metric,unit,better,op,iteration,value"
		for v in a b c; do for i in 1 2; do echo "$2,$v,c,wide,m,s,lower,$op,$i,1.5"; done; done
	} >"$WORK/$2.csv"
	"$SCHEDRIG" import --csv "$WORK/$2.csv" --run "$2" --db "$DB" >/dev/null
}
mkcsv $((998 - 79)) at-limit
"$SCHEDRIG" compare --db "$DB" at-limit | awk '{ if (length($0) > m) m = length($0) } END { exit m == 998 ? 0 : 1 }' ||
	fail "the at-limit table is not 998 octets wide"
"$SCHEDRIG" mail --db "$DB" at-limit --from r@example.org --to m@example.org --subject s \
	--output "$WORK/limit.eml" || fail "a 998-octet table line was refused"
mkcsv $((999 - 79)) over-limit
set +e
err=$("$SCHEDRIG" mail --db "$DB" over-limit --from r@example.org --to m@example.org --subject s \
	--smtp-url "smtp://127.0.0.1:$PORT" 2>&1)
rc=$?
set -e
assert_eq "$rc" 1 "exit status of a refused table"
assert_contains "$err" "table 'wide m (s, lower is better)" "refusal names the table"
assert_contains "$err" "999 octets" "refusal names the width"
assert_contains "$err" "998" "refusal names the limit"
sleep 0.3
[ ! -f "$WORK/inbox/msg2.eml" ] || fail "a refused message was sent"

# Usage: exactly one destination, no password option, bad addresses.
set +e
"$SCHEDRIG" mail --db "$DB" --from r@example.org --to m@example.org --subject s >/dev/null 2>&1
assert_eq "$?" 2 "no destination"
"$SCHEDRIG" mail --db "$DB" --from r@example.org --to m@example.org --subject s --dry-run \
	--smtp-password secret >/dev/null 2>&1
assert_eq "$?" 2 "--smtp-password is not an option"
"$SCHEDRIG" mail --db "$DB" --from nobody --to m@example.org --subject s --dry-run >/dev/null 2>&1
assert_eq "$?" 2 "bad --from"
"$SCHEDRIG" mail --db "$DB" --from r@example.org --to m@example.org --dry-run >/dev/null 2>&1
assert_eq "$?" 2 "--subject missing"
# Bad values are usage errors (2) found before the database is read: a
# database that does not exist would be a failure (1). The message goes to
# $WORK/usage.err.
usage_error() { # WHAT OPTION...
	local rc=0
	"$SCHEDRIG" mail --db "$WORK/none.db" --from r@example.org --to m@example.org --subject s \
		"${@:2}" >/dev/null 2>"$WORK/usage.err" || rc=$?
	assert_eq "$rc" 2 "exit status of $1"
	! grep -q none.db "$WORK/usage.err" || fail "$1: the database was read first: $(cat "$WORK/usage.err")"
}
usage_error "an http URL" --smtp-url "http://127.0.0.1:$PORT"
assert_contains "$(cat "$WORK/usage.err")" \
	"--smtp-url must be smtp://HOST[:PORT] or smtps://HOST[:PORT]: 'http://127.0.0.1:$PORT'" "bad URL message"
usage_error "a URL without scheme" --smtp-url "127.0.0.1:$PORT"
usage_error "a bad port" --smtp-url "smtp://127.0.0.1:99999"
usage_error "a message id with a space" --in-reply-to "a b@c" --dry-run
assert_contains "$(cat "$WORK/usage.err")" "bad --in-reply-to message id 'a b@c'" "bad message id message"
usage_error "a subject of invalid UTF-8" --subject "$(printf 'caf\xe9')" --dry-run
assert_contains "$(cat "$WORK/usage.err")" "the subject holds invalid UTF-8" "bad subject message"
# The work failing is 1: no server listening on the port, TLS (smtps://)
# to the plain server.
CLOSED=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
err=$("$SCHEDRIG" mail --db "$DB" dbench-utf8 --from r@example.org --to m@example.org \
	--subject s --smtp-url "smtp://127.0.0.1:$CLOSED" 2>&1)
assert_eq "$?" 1 "exit status with no server listening"
assert_contains "$err" "schedrig mail: sending via smtp://127.0.0.1:$CLOSED failed: " "no server: message"
assert_contains "$err" "onnect" "no server: the reason"
err=$("$SCHEDRIG" mail --db "$DB" dbench-utf8 --from r@example.org --to m@example.org \
	--subject s --smtp-url "smtps://127.0.0.1:$PORT" 2>&1)
assert_eq "$?" 1 "exit status of TLS to a plain SMTP server"
assert_contains "$err" "schedrig mail: sending via smtps://127.0.0.1:$PORT failed: " "TLS failure message"
set -e
# The password comes from the environment and never shows (a loopback
# server: the STARTTLS rule for other hosts is unit-tested in test_mailmsg,
# since tests start servers on 127.0.0.1 only).
err=$(SCHEDRIG_SMTP_PASSWORD=hunter2 "$SCHEDRIG" mail --db "$DB" dbench-utf8 --from r@example.org \
	--to m@example.org --subject s --smtp-user rig --smtp-url "smtp://127.0.0.1:$PORT" 2>&1) || true
case "$err" in *hunter2*) fail "the password was printed" ;; esac

# --smtp-user with no password anywhere (no SCHEDRIG_SMTP_PASSWORD, no
# ~/.netrc entry for the URL's host with that login) is a usage error naming
# both places, found before the database is read; nothing is sent. An entry
# for another login or host does not count; the right one does.
mkdir -p "$WORK/home"
sent_before=$(ls "$WORK/inbox" | grep -c '\.eml$' || true)
user_mail() { # DB
	env -u SCHEDRIG_SMTP_PASSWORD HOME="$WORK/home" "$SCHEDRIG" mail --db "$1" dbench-utf8 \
		--from r@example.org --to m@example.org --subject s --smtp-user rig \
		--smtp-url "smtp://127.0.0.1:$PORT"
}
no_password() { # WHAT
	local rc=0
	user_mail "$WORK/none.db" >/dev/null 2>"$WORK/pw.err" || rc=$?
	assert_eq "$rc" 2 "exit status of --smtp-user without a password: $1"
	assert_eq "$(cat "$WORK/pw.err")" "schedrig mail: --smtp-user rig: no password: none in the environment variable SCHEDRIG_SMTP_PASSWORD and no entry 'machine 127.0.0.1 login rig password ...' in $WORK/home/.netrc" \
		"message of --smtp-user without a password: $1"
}
no_password "no .netrc"
printf 'machine 127.0.0.1 login other password x\nmachine example.org login rig password x\n' \
	>"$WORK/home/.netrc"
no_password "entries for another login and another host"
printf 'machine 127.0.0.1 login rig\n' >"$WORK/home/.netrc"
no_password "an entry without a password"
sleep 0.3
assert_eq "$(ls "$WORK/inbox" | grep -c '\.eml$' || true)" "$sent_before" "messages sent without a password"
printf 'machine example.org login rig password x\nmachine 127.0.0.1\n  login rig\n  password "se cret"\n' \
	>"$WORK/home/.netrc"
user_mail "$DB" >"$WORK/pw.out" 2>&1 || fail "--smtp-user with a .netrc password: $(cat "$WORK/pw.out")"
assert_contains "$(cat "$WORK/pw.out")" "sent to 1 recipient(s)" "sent with a .netrc password"
rm "$WORK/home/.netrc"
SCHEDRIG_SMTP_PASSWORD=hunter2 HOME="$WORK/home" "$SCHEDRIG" mail --db "$DB" dbench-utf8 \
	--from r@example.org --to m@example.org --subject s --smtp-user rig \
	--smtp-url "smtp://127.0.0.1:$PORT" >"$WORK/pw.out" 2>&1 ||
	fail "--smtp-user with SCHEDRIG_SMTP_PASSWORD: $(cat "$WORK/pw.out")"
exit 0
