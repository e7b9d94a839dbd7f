#!/bin/bash
# TLS and --allow between ktrace ends, on loopback, without the kernel: net_replay
# --ktrace-client sends a corpus recording through record -N's own client code. A good TLS
# session (server certificate, mutual authentication, pre-shared key) must give the file a
# plaintext session gives; every refused client (a certificate from another CA, an expired
# one, none, a wrong key, plaintext to a TLS listener and TLS to a plaintext one, an address
# outside --allow) must fail on the client, cost the listener one log line naming the peer and
# why, and write nothing into DIR, the listener serving the next client. Certificates are made
# here with the openssl command.
#   tls.sh KTRACE NET_REPLAY CORPUS_DIR
set -u
KTRACE=$1
REPLAY=$2
CORPUS=$3
. "$(dirname "$0")/lib.sh"

command -v openssl > /dev/null ||
	{ echo "FAIL: the openssl command is missing (apt-get install openssl)"; exit 1; }
F=$CORPUS/block.dat
[ -f "$F" ] || { echo "FAIL: no $F"; exit 1; }

# Certificates: ca and otherca; the listener's (for 127.0.0.1 and localhost), expired or not;
# clients signed by ca, by otherca, and one by ca that expired in 2020.
C=$W/certs
mkdir -p "$C/db"
key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$C/$1.key"; }
make_ca() {
	key "$1" && openssl req -x509 -new -key "$C/$1.key" -out "$C/$1.pem" -days 30 -subj "/CN=$1"
}
# make_cert NAME CA SAN [expired]
make_cert() {
	key "$1" && openssl req -new -key "$C/$1.key" -out "$C/$1.csr" -subj "/CN=$1" || return 1
	printf 'subjectAltName=%s\n' "$3" > "$C/$1.ext"
	if [ -z "${4:-}" ]; then
		openssl x509 -req -in "$C/$1.csr" -CA "$C/$2.pem" -CAkey "$C/$2.key" \
			-CAcreateserial -out "$C/$1.pem" -days 30 -extfile "$C/$1.ext"
	else
		# x509 -req cannot date a certificate in the past: the ca command can.
		: > "$C/db/index.txt"
		printf '%02x\n' $((RANDOM % 200 + 16)) > "$C/db/serial"
		printf '%s\n' '[ca]' 'default_ca = d' '[d]' "database = $C/db/index.txt" \
			"new_certs_dir = $C/db" "serial = $C/db/serial" 'default_md = sha256' \
			'policy = p' '[p]' 'commonName = supplied' \
			> "$C/ca.cnf"
		openssl ca -batch -config "$C/ca.cnf" -cert "$C/$2.pem" -keyfile "$C/$2.key" \
			-in "$C/$1.csr" -out "$C/$1.pem" -extfile "$C/$1.ext" -startdate 20200101000000Z \
			-enddate 20200102000000Z -notext
	fi
}
{
	make_ca ca && make_ca otherca &&
	make_cert server ca "IP:127.0.0.1,IP:::1,DNS:localhost" &&
	make_cert oldserver ca "IP:127.0.0.1,DNS:localhost" expired &&
	make_cert client ca "DNS:client" &&
	make_cert stranger otherca "DNS:stranger" &&
	make_cert oldclient ca "DNS:oldclient" expired &&
	head -c 32 /dev/urandom > "$C/psk" && head -c 32 /dev/urandom > "$C/otherpsk"
} > "$W/openssl.log" 2>&1 || { echo "FAIL: making the certificates"; cat "$W/openssl.log"; exit 1; }
CA=(--tls-ca "$C/ca.pem")
CLIENT=(--tls-cert "$C/client.pem" --tls-key "$C/client.key")
SERVER=(--tls-cert "$C/server.pem" --tls-key "$C/server.key")

HOST=127.0.0.1
# client ARGS...: net_replay to the listener on $HOST:$PORT; its messages in $W/client.err
client() {
	timeout 60 "$REPLAY" "$@" "$HOST" "$PORT" "$F" > "$W/client.err" 2>&1
}

# served WHAT CLIENT-ARGS...: the session's file is the plaintext session's, byte for byte
served() {
	local what=$1 n got
	shift
	n=$(grep -c ': wrote ' "$LOG")
	client "$@" || { fail "$what: the client failed: $(cat "$W/client.err")"; return; }
	wait_log ': wrote ' $((n + 1)) || return
	got=$D/$(grep ': wrote ' "$LOG" | tail -1 | sed -n 's/.*: wrote \([^ ]*\) .*/\1/p')
	cmp -s "$got" "$PLAIN" && pass "$what: the file is the plaintext session's" ||
		fail "$what: the file differs from the plaintext session's"
	rm -f "$got"
}

# refused WHAT LOG-PATTERN CLIENT-PATTERN CLIENT-ARGS...: the client fails saying
# CLIENT-PATTERN; the listener adds exactly one line, "PEER: refused: ..." (or "dropped:"
# for a plaintext listener) matching LOG-PATTERN; DIR stays empty.
refused() {
	local what=$1 lpat=$2 cpat=$3 lines kind=refused n
	shift 3
	[ -z "$TLS_LISTENER" ] && [ "$lpat" != "outside every --allow range" ] && kind=dropped
	lines=$(wc -l < "$LOG")
	n=$(grep -c ": $kind: .*$lpat" "$LOG")
	client "$@" && { fail "$what: the client was served"; return; }
	grep -q -- "$cpat" "$W/client.err" ||
		fail "$what: the client did not say '$cpat': $(cat "$W/client.err")"
	wait_log ": $kind: .*$lpat" $((n + 1)) || return
	sleep 0.2
	# a plaintext listener logs "connected" before it reads what the client sends
	[ "$kind" = dropped ] && lines=$((lines + 1))
	[ "$(wc -l < "$LOG")" = $((lines + 1)) ] ||
		fail "$what: more than one log line: $(tail -n +$((lines + 1)) "$LOG")"
	tail -1 "$LOG" | grep -q "^[-0-9]* [:0-9]* [^ ]*:[0-9]*: $kind: " ||
		fail "$what: the line does not name the peer: $(tail -1 "$LOG")"
	[ -z "$(ls -A "$D")" ] && pass "$what: refused ('$lpat'), nothing written" ||
		fail "$what: written into DIR: $(ls -A "$D")"
}

# listener NAME FLAGS...: a fresh listener writing into $W/NAME
listener() {
	[ -n "$LISTEN_PID" ] && stop_listener
	D=$W/$1
	shift
	TLS_LISTENER=
	case "$*" in *--tls-*) TLS_LISTENER=1 ;; esac
	start_listener "$D" --timeout 1 "$@"
}

# 1. The plaintext session every good TLS session must match.
listener plain

client --ktrace-client || fail "plaintext session: $(cat "$W/client.err")"
wait_log ': wrote ' 1
PLAIN=$W/plain.dat
mv "$D/$(sed -n 's/.*: wrote \([^ ]*\) .*/\1/p' "$LOG")" "$PLAIN"
served "plaintext, net_replay's own client"
refused "TLS client to a plaintext listener" "it speaks TLS, and this listener has no" \
	"TLS handshake: wrong version number" --tls "${CA[@]}"

# 2. A listener with a certificate: the client verifies it.
listener server "${SERVER[@]}"
served "TLS, listener verified by --tls-ca" --tls "${CA[@]}"
HOST=localhost served "TLS to a name in the certificate" "${CA[@]}"
refused "listener certificate from another CA" "alert unknown ca" \
	"certificate refused: unable to get local issuer certificate" \
	--tls-ca "$C/otherca.pem"
refused "plaintext ktrace client to a TLS listener" "no TLS handshake within --timeout" \
	"waiting for the greeting" --ktrace-client
refused "trace-cmd's way (plaintext) to a TLS listener" "no TLS handshake within --timeout" \
	"listener closed the connection"
# A client asking for UDP data (record refuses --tls --udp itself; another might not).
n=$(grep -c 'dropped: UDP data refused: this listener speaks TLS' "$LOG")
client --udp "${CA[@]}" && fail "UDP data over a TLS control connection accepted"
wait_log 'dropped: UDP data refused: this listener speaks TLS' $((n + 1)) &&
	[ -z "$(ls -A "$D")" ] && pass "UDP data refused by a TLS listener, nothing written"
served "still serving after the refusals" "${CA[@]}"

listener oldserver --tls-cert "$C/oldserver.pem" --tls-key "$C/oldserver.key"
refused "expired listener certificate" "alert certificate expired" \
	"certificate refused: certificate has expired" "${CA[@]}"

# 3. Mutual authentication.
listener mutual "${SERVER[@]}" "${CA[@]}"
served "mutual TLS, client certificate signed by the CA" "${CA[@]}" "${CLIENT[@]}"
refused "client certificate from another CA" \
	"certificate refused: unable to get local issuer certificate" "alert unknown ca" \
	"${CA[@]}" --tls-cert "$C/stranger.pem" --tls-key "$C/stranger.key"
refused "expired client certificate" "certificate refused: certificate has expired" \
	"alert certificate expired" \
	"${CA[@]}" --tls-cert "$C/oldclient.pem" --tls-key "$C/oldclient.key"
refused "no client certificate" "peer did not return a certificate" \
	"alert certificate required" "${CA[@]}"
grep -q ': connected (TLSv1.3, peer certificate CN=client)$' "$LOG" &&
	pass "the log names the client's certificate" || fail "no CN in the log"
served "mutual TLS still serving" "${CA[@]}" "${CLIENT[@]}"

# 4. A pre-shared key.
listener psk --tls-psk "$C/psk"
served "TLS with a pre-shared key" --tls-psk "$C/psk"
refused "wrong pre-shared key" "wrong pre-shared key" "alert illegal parameter" \
	--tls-psk "$C/otherpsk"
refused "certificates to a pre-shared key listener" "the client has no pre-shared key" \
	"alert handshake failure" "${CA[@]}"

# 5. --allow, IPv4 and IPv6.
listener allow10 --allow 10.0.0.0/8 --allow fd00::/8
refused "--allow 10.0.0.0/8: 127.0.0.1" "outside every --allow range" \
	"listener closed the connection"
listener allow127 --allow 10.0.0.0/8 --allow 127.0.0.0/8
served "--allow 127.0.0.0/8: 127.0.0.1 served" --ktrace-client
listener allowtls --allow 127.0.0.1 "${SERVER[@]}"
served "--allow with TLS" "${CA[@]}"
stop_listener
# IPv6: a listener on ::1 (start_listener binds 127.0.0.1)
ipv6_listener() {
	D=$W/$1
	LOG=$D.log
	mkdir -p "$D"
	: > "$LOG"
	shift
	"$KTRACE" listen -p 0 --bind ::1 -d "$D" -l "$LOG" "$@" &
	LISTEN_PID=$!
	wait_log 'listening on'
	PORT=$(sed -n 's/.*listening on .* port \([0-9]*\) (pid [0-9]*)$/\1/p' "$LOG")
}
TLS_LISTENER=
HOST=::1
ipv6_listener allow6 --allow fd00::/8 --allow 127.0.0.0/8
refused "--allow fd00::/8: ::1" "outside every --allow range" "listener closed the connection"
stop_listener
ipv6_listener allow6ok --allow fd00::/8 --allow ::1/128 "${SERVER[@]}"
served "--allow ::1/128 with TLS over IPv6" "${CA[@]}"
stop_listener
HOST=127.0.0.1

# 6. Options refused before anything runs.
"$KTRACE" listen -p 0 --allow 10.0.0.0/33 2> "$W/err" && fail "--allow /33 accepted"
grep -q "expected ADDRESS\[/PREFIX\]" "$W/err" && pass "--allow with a bad prefix refused"
"$KTRACE" listen -p 0 --tls-ca "$C/ca.pem" 2> "$W/err" && fail "--tls-ca alone accepted"
grep -q "TLS needs --tls-cert and --tls-key" "$W/err" && pass "listen --tls-ca needs a certificate"
"$KTRACE" listen -p 0 --tls-cert "$C/server.pem" --tls-key "$C/client.key" 2> "$W/err" &&
	fail "a key of another certificate accepted"
grep -q "key values mismatch" "$W/err" && pass "a key that does not match is refused"
"$KTRACE" listen -p 0 --tls-cert "$W/none.pem" --tls-key "$C/server.key" 2> "$W/err" &&
	fail "a missing certificate accepted"
grep -q "none.pem: No such file" "$W/err" && pass "a missing certificate file is named"
printf 'secret' > "$C/short"
"$KTRACE" listen -p 0 --tls-psk "$C/short" 2> "$W/err" && fail "a short key file accepted"
grep -q "a key file holds 16 to 4096 bytes" "$W/err" && pass "a short pre-shared key is refused"
"$KTRACE" record -N 127.0.0.1:1 --tls --udp -e sched true 2> "$W/err" &&
	fail "record --tls --udp accepted"
grep -q -- "--tls covers TCP only: drop --udp" "$W/err" && pass "record --tls --udp refused"
"$KTRACE" record --tls "${CA[@]}" -e sched true 2> "$W/err" && fail "--tls without -N accepted"
grep -q -- "--tls needs -N" "$W/err" && pass "record --tls needs -N"
finish "$LOG"
