#!/usr/bin/env bash
# with-registry with-apiserver images_push_test.sh: `llm-sandbox images push` puts the Python image into the loopback
# registry, and a kubernetes run with LLM_SANDBOX_REGISTRY naming that registry runs in a pod whose image the test
# API server's node pulled from it (the pushed tag was removed locally first, so only a pull can bring it back).
set -uo pipefail

: "${LLM_SANDBOX_TEST_REGISTRY:?run through with-registry}" "${KUBECONFIG:?run through with-apiserver}"
: "${LLM_SANDBOX_BIN:?the llm-sandbox program under test}"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
registry=$LLM_SANDBOX_TEST_REGISTRY
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# Only the registry's tags are removed, never the llm-sandbox/* images they name: also the one the node pulled.
remove_registry_tags() {
    docker images --format '{{.Repository}}:{{.Tag}}' | grep -F "$registry/" | xargs -r docker image rm >/dev/null
}
trap remove_registry_tags EXIT

# No registry named: a usage error that says where the name comes from.
usage=$(env -u LLM_SANDBOX_REGISTRY "$LLM_SANDBOX_BIN" images push python 2>&1)
status=$?
[ $status -eq 2 ] || fail "push without a registry: exit $status, expected 2"
[[ $usage == *LLM_SANDBOX_REGISTRY* ]] || fail "push without a registry: [$usage]"

# The kubernetes backend has no images to push: a usage error pointing at the engines that do.
refused=$("$LLM_SANDBOX_BIN" images push python --backend kubernetes --registry "$registry" 2>&1)
status=$?
[ $status -eq 2 ] || fail "push --backend kubernetes: exit $status, expected 2"
[[ $refused == *"--backend docker"* ]] || fail "push --backend kubernetes: [$refused]"

log=$(mktemp) || exit 1
pushed=$("$LLM_SANDBOX_BIN" images push python --registry "$registry" 2>"$log")
status=$?
progress=$(cat "$log")
rm -f "$log"
if [ $status -ne 0 ]; then
    echo "$progress" >&2
    fail "images push: exit $status"
    exit 1
fi
[[ $pushed == "$registry"/llm-sandbox/python:* ]] || fail "pushed reference [$pushed]"
[[ $progress == *": Pushed"* || $progress == *": Layer already exists"* ]] || fail "no layer progress: [$progress]"
digest=$(grep -o 'digest: sha256:[0-9a-f]*' <<<"$progress" | head -1 | cut -d' ' -f2)
[ -n "$digest" ] || fail "no digest in the progress: [$progress]"
tag=${pushed##*:}
curl -sf "http://$registry/v2/llm-sandbox/python/tags/list" | grep -q "\"$tag\"" || fail "the registry lacks tag $tag"

# An unreachable registry: the message says so.
unreachable=$("$LLM_SANDBOX_BIN" images push python --registry 127.0.0.1:1 2>&1 >/dev/null)
[ $? -ne 0 ] || fail "push to an unreachable registry succeeded"
[[ $unreachable == *"The registry 127.0.0.1:1 could not be reached"* ]] || fail "unreachable registry: [$unreachable]"
docker image rm "127.0.0.1:1/llm-sandbox/python:$tag" >/dev/null 2>&1

docker image rm "$pushed" >/dev/null || exit 1
if docker image inspect "$pushed" >/dev/null 2>&1; then
    fail "the pushed tag is still present locally, the pod would not pull"
fi

output=$(BACKEND=kubernetes LLM_SANDBOX_REGISTRY=$registry "$here/with-sandbox-policy" \
    "$LLM_SANDBOX_BIN" run -l python -c 'print(6*7)' 2>&1)
status=$?
[ $status -eq 0 ] || fail "kubernetes run: exit $status: [$output]"
[ "$output" == "42" ] || fail "kubernetes run printed [$output]"
# The node has the image again only because it pulled it, and from this registry: its digest is the pushed one.
repo_digests=$(docker image inspect --format '{{join .RepoDigests " "}}' "$pushed" 2>&1) || fail "not pulled: $repo_digests"
[[ " $repo_digests " == *" $registry/llm-sandbox/python@$digest "* ]] ||
    fail "the pulled image's digests [$repo_digests] lack the pushed $digest"

if [ $failures -ne 0 ]; then
    exit 1
fi
echo "images push: the kubernetes run pulled $pushed from the registry"
