#!/usr/bin/env bash
# with-apiserver --max-pods 1 -- max_pods_flag_test.sh: the flag gives every namespace a pods quota, and kubectl
# shows the real refusal for the pod over it.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
image=$("$here/test-image")
kubectl run first --image="$image" --restart=Never --image-pull-policy=IfNotPresent --command -- sleep 600 || exit 1
refusal=$(kubectl run second --image="$image" --restart=Never --command -- true 2>&1)
kubectl delete pod first --now >/dev/null
expected='Error from server (Forbidden): pods "second" is forbidden: exceeded quota: pod-quota, requested: pods=1, used: pods=1, limited: pods=1'
if [ "$refusal" != "$expected" ]; then
    echo "FAIL: expected [$expected], got [$refusal]" >&2
    exit 1
fi
echo "max-pods: the quota refusal is the real one"
