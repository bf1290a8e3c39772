#!/usr/bin/env bash
# with-registry with-apiserver registry_pull_test.sh: an image pushed to the loopback registry is what a pod runs,
# pulled by the test API server's node because it is not present locally, so image references work end to end.
set -uo pipefail

: "${LLM_SANDBOX_TEST_REGISTRY:?run through with-registry}" "${KUBECONFIG:?run through with-apiserver}"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_image=$("$here/test-image")
reference="$LLM_SANDBOX_TEST_REGISTRY/llm-sandbox/pull-test:$$"
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# Only the tag this test adds is removed: the image itself stays under its own name.
trap 'docker image rm "$reference" >/dev/null 2>&1' EXIT
docker tag "$source_image" "$reference" || exit 1
docker push -q "$reference" >/dev/null || exit 1
docker image rm "$reference" >/dev/null || exit 1
if docker image inspect "$reference" >/dev/null 2>&1; then
    fail "the pushed tag is still present locally, the pod would not pull"
fi

kubectl run pulled --image="$reference" --image-pull-policy=IfNotPresent --restart=Never --command -- \
    sh -c 'echo pulled and running; sleep 600' >/dev/null || exit 1
wait=$(kubectl wait --for=condition=Ready pod/pulled --timeout=180s 2>&1) || fail "pod did not run: $wait"
[ "$(kubectl exec pulled -- echo exec-ok)" == "exec-ok" ] || fail "exec in the pulled pod"
[ "$(kubectl logs pulled)" == "pulled and running" ] || fail "logs of the pulled pod"
image_id=$(kubectl get pod pulled -o jsonpath='{.status.containerStatuses[0].imageID}')
[[ $image_id == docker://sha256:* ]] || fail "imageID [$image_id]"
kubectl delete pod pulled --now >/dev/null

# A reference the registry does not have: the pod reports the pull failure.
kubectl run missing --image="$LLM_SANDBOX_TEST_REGISTRY/llm-sandbox/not-pushed:1" --restart=Never >/dev/null || exit 1
reason=$(kubectl wait --for=jsonpath='{.status.containerStatuses[0].state.waiting.reason}'=ErrImagePull \
    pod/missing --timeout=60s 2>&1) || fail "no ErrImagePull: $reason"
kubectl delete pod missing --now >/dev/null

if [ $failures -ne 0 ]; then
    exit 1
fi
echo "registry: the pod ran the image pulled from $LLM_SANDBOX_TEST_REGISTRY"
