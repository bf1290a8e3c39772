#!/usr/bin/env bash
# with-keychain with-registry --auth images_login_test.sh ENGINE: `llm-sandbox images login/logout` and an
# authenticated `images push` through ENGINE (docker or podman) against a loopback registry that wants a login, with
# the logins in a real (throwaway) Secret Service keychain. A wrong password is refused and nothing is stored; the
# right one is stored; the push sends it; a login the registry no longer accepts fails the push without the
# password showing anywhere; after logout the push fails saying it needs a login.
set -uo pipefail

engine=${1:?usage: images_login_test.sh docker|podman}
: "${LLM_SANDBOX_TEST_REGISTRY:?run through with-registry --auth}" "${LLM_SANDBOX_TEST_REGISTRY_PASSWORD:?--auth}"
: "${DBUS_SESSION_BUS_ADDRESS:?run through with-keychain}" "${LLM_SANDBOX_BIN:?the llm-sandbox program under test}"
registry=$LLM_SANDBOX_TEST_REGISTRY
user=$LLM_SANDBOX_TEST_REGISTRY_USER
password=$LLM_SANDBOX_TEST_REGISTRY_PASSWORD
language=ruby # the smallest image
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
sandbox() { "$LLM_SANDBOX_BIN" images "$@" --backend "$engine"; }
# The keychain entry, as QtKeychain's Secret Service backend keeps it: schema org.qt.keychain, service "llm-sandbox",
# key "registry/HOST:PORT", the value base64-encoded (type base64).
entry() { secret-tool lookup server llm-sandbox user "registry/$registry" | base64 -d; }
# Every way a secret could leak into text: as typed, and inside the base64 of an X-Registry-Auth header.
leaks() {
    local text=$1 secret=$2
    [[ $text == *"$secret"* ]] && return 0
    local header
    header=$(printf '{"password":"%s"' "$secret" | base64 -w0 | tr '+/' '-_' | tr -d '=')
    [[ $text == *"${header:8:16}"* ]]
}

# Only the registry's tags are removed, never the llm-sandbox/* images they name.
remove_registry_tags() {
    "$engine" images --format '{{.Repository}}:{{.Tag}}' | grep -F "$registry/" | xargs -r "$engine" image rm >/dev/null
}
trap remove_registry_tags EXIT

# The password only from stdin: anything more on the command line is a usage error.
extra=$(echo "$password" | sandbox login "$registry" --username "$user" "$password" 2>&1)
status=$?
[ $status -eq 2 ] || fail "login with a password argument: exit $status, expected 2"
[[ $extra == *"only from stdin"* ]] || fail "login with a password argument: [$extra]"

# A wrong password: the registry's refusal, said plainly; nothing stored.
wrong=$(echo "not-$password" | sandbox login "$registry" --username "$user" 2>&1)
status=$?
[ $status -ne 0 ] || fail "login with a wrong password succeeded"
[[ $wrong == *"refused the login of $user: wrong username or password"* ]] || fail "wrong password: [$wrong]"
[[ $wrong == *"Nothing was stored"* ]] || fail "wrong password does not say nothing was stored: [$wrong]"
leaks "$wrong" "not-$password" && fail "the wrong password shows in [$wrong]"
[ -z "$(entry 2>/dev/null)" ] || fail "a refused login was stored in the keychain"

# An unreachable registry: said so.
unreachable=$(echo "$password" | sandbox login 127.0.0.1:1 --username "$user" 2>&1)
[ $? -ne 0 ] || fail "login to an unreachable registry succeeded"
[[ $unreachable == *"127.0.0.1:1 could not be reached"* ]] || fail "unreachable registry: [$unreachable]"

# No keychain (no D-Bus session): the registry accepts the login, and the message says why it could not be kept.
nokeychain=$(echo "$password" | env -u DBUS_SESSION_BUS_ADDRESS -u DISPLAY "$LLM_SANDBOX_BIN" images login "$registry" \
    --username "$user" --backend "$engine" 2>&1)
[ $? -ne 0 ] || fail "login without a keychain succeeded"
[[ $nokeychain == *"accepted the login, but it could not be kept: no usable system keychain"* ]] ||
    fail "login without a keychain: [$nokeychain]"
leaks "$nokeychain" "$password" && fail "the password shows in [$nokeychain]"

# The right password: checked, then kept in the keychain (and nowhere in the settings or the temporary home).
right=$(printf '%s\n' "$password" | sandbox login "$registry" --username "$user" 2>&1)
status=$?
[ $status -eq 0 ] || fail "login: exit $status: [$right]"
[[ $right == *"Login Succeeded"* ]] || fail "login: [$right]"
[[ $(entry) == *"$password"* ]] || fail "the keychain lacks the login"
leaks "$right" "$password" && fail "the password shows in [$right]"
for place in "${XDG_CONFIG_HOME:-}" "$HOME/.config" "$HOME/.docker"; do
    [ -n "$place" ] && [ -d "$place" ] && grep -rqF -- "$password" "$place" && fail "the password is in a file under $place"
done

# The push sends the login; with debug logging on, the password still shows nowhere.
log=$(mktemp) || exit 1
pushed=$(QT_LOGGING_RULES='*.debug=true' sandbox push "$language" --registry "$registry" 2>"$log")
status=$?
progress=$(cat "$log")
rm -f "$log"
[ $status -eq 0 ] || fail "push with the login: exit $status: [$progress]"
[[ $pushed == "$registry/llm-sandbox/$language:"* ]] || fail "pushed reference [$pushed]"
[[ $progress == *"Using the login of $user for $registry"* ]] || fail "push does not name the login it uses"
leaks "$progress$pushed" "$password" && fail "the password shows in the push's output"
tag=${pushed##*:}
curl -sf -u "$user:$password" "http://$registry/v2/llm-sandbox/$language/tags/list" | grep -q "\"$tag\"" ||
    fail "the registry lacks tag $tag"

# A login the registry no longer accepts (the password changed there): the push fails naming the stored login, and
# neither password shows, also not in the debug log.
stale="stale-$password"
printf '{"password":"%s","username":"%s"}' "$stale" "$user" | base64 -w0 |
    secret-tool store --label llm-sandbox server llm-sandbox user "registry/$registry" type base64 ||
    fail "could not replace the keychain entry"
if [[ $(entry) == *"$stale"* ]]; then
    refused=$(QT_LOGGING_RULES='*.debug=true' sandbox push "$language" --registry "$registry" 2>&1 >/dev/null)
    status=$?
    [ $status -ne 0 ] || fail "push with a stale login succeeded"
    [[ $refused == *"refused the push with the login stored for it"* ]] || fail "stale login: [$refused]"
    leaks "$refused" "$stale" && fail "the stale password shows in [$refused]"
    leaks "$refused" "$password" && fail "the password shows in [$refused]"
else
    fail "the keychain entry written by secret-tool is not the one llm-sandbox reads"
fi

# Logout: the entry is gone, and the registry refuses the push, saying it needs a login.
out=$(sandbox logout "$registry" 2>&1)
status=$?
[ $status -eq 0 ] || fail "logout: exit $status: [$out]"
[ -z "$(entry 2>/dev/null)" ] || fail "the login is still in the keychain after logout"
needs=$(sandbox push "$language" --registry "$registry" 2>&1 >/dev/null)
[ $? -ne 0 ] || fail "push after logout succeeded"
[[ $needs == *"The registry $registry refused the push: it needs a login"* ]] || fail "push after logout: [$needs]"
[[ $needs == *"llm-sandbox images login $registry"* ]] || fail "push after logout does not say how to log in: [$needs]"

if [ $failures -ne 0 ]; then
    exit 1
fi
echo "images login/push/logout on $engine against an authenticated registry: all checks passed"
