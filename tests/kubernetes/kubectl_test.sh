#!/usr/bin/env bash
# kubectl (Debian's, 1.32) against the test API server: proves discovery, create from a manifest, get, exec over
# WebSocket v5 with exit codes and stdin, logs, top (the metrics API) and delete speak the real protocol. Run through
# with-apiserver.
set -uo pipefail

: "${KUBECONFIG:?run through with-apiserver}" "${LLM_SANDBOX_TEST_KUBE_STATE:?run through with-apiserver}"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
image=$("$here/test-image")
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
expect_eq() { [ "$2" == "$3" ] || fail "$1: expected [$3], got [$2]"; }
expect_contains() { [[ $2 == *"$3"* ]] || fail "$1: expected to contain [$3], got [$2]"; }

manifest=$(mktemp)
trap 'rm -f "$manifest"' EXIT
# A uid of the images' sandbox range, not the host's desktop uid 1000: the hostile-code tests, which may run in another
# lane at the same time (scripts/test), hold 1,100 threads as uid 1000, and RLIMIT_NPROC counts a uid's threads
# host-wide, so a pod as uid 1000 then could not start its shell.
cat >"$manifest" <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: kubectl-test
  labels: {app: kubectl-test}
spec:
  restartPolicy: Never
  terminationGracePeriodSeconds: 1
  containers:
  - name: main
    image: $image
    imagePullPolicy: IfNotPresent
    command: ["sh", "-c", "echo started; sleep 600"]
    securityContext:
      runAsUser: 21000
      runAsNonRoot: true
      allowPrivilegeEscalation: false
      readOnlyRootFilesystem: true
      capabilities: {drop: [ALL]}
      seccompProfile: {type: RuntimeDefault}
    resources:
      limits: {cpu: 500m, memory: 128Mi}
    volumeMounts: [{name: tmp, mountPath: /tmp}]
  volumes:
  - name: tmp
    emptyDir: {medium: Memory, sizeLimit: 16Mi}
EOF

expect_contains "version" "$(kubectl version 2>&1)" "Server Version: v1.32"
expect_eq "create" "$(kubectl create -f "$manifest" 2>&1)" "pod/kubectl-test created"
expect_eq "create again" "$(kubectl create -f "$manifest" 2>&1)" \
    'Error from server (AlreadyExists): error when creating "'"$manifest"'": pods "kubectl-test" already exists'
expect_eq "wait" "$(kubectl wait --for=condition=Ready pod/kubectl-test --timeout=120s 2>&1)" \
    "pod/kubectl-test condition met"
listing=$(kubectl get pods 2>&1)
expect_contains "get pods" "$listing" "kubectl-test"
expect_contains "get pods" "$listing" "Running"
expect_eq "get -l" "$(kubectl get pods -l app=kubectl-test -o jsonpath='{.items[*].metadata.name}')" "kubectl-test"
expect_eq "get -l missing" "$(kubectl get pods -l app=other -o name)" ""
expect_eq "label" "$(kubectl label pod kubectl-test llm-sandbox/in-use=yes 2>&1)" "pod/kubectl-test labeled"
expect_eq "label shown" "$(kubectl get pods -l llm-sandbox/in-use=yes -o name)" "pod/kubectl-test"
expect_eq "jsonpath" "$(kubectl get pod kubectl-test -o jsonpath='{.status.phase}')" "Running"

out=$(kubectl exec kubectl-test -- sh -c 'echo hi; echo oops >&2; exit 3' 2>/dev/null)
code=$?
expect_eq "exec stdout" "$out" "hi"
expect_eq "exec exit code" "$code" "3"
err=$(kubectl exec kubectl-test -- sh -c 'echo oops >&2; exit 3' 2>&1 >/dev/null)
expect_contains "exec stderr" "$err" "oops"
expect_contains "exec exit message" "$err" "command terminated with exit code 3"
expect_eq "exec -i" "$(printf 'line one\nline two\n' | kubectl exec -i kubectl-test -- sh -c 'cat; echo done')" \
    "$(printf 'line one\nline two\ndone')"
expect_eq "exec user" "$(kubectl exec kubectl-test -- id -u)" "21000"
expect_eq "exec read-only root" "$(kubectl exec kubectl-test -- sh -c 'touch /x 2>/dev/null || echo ro')" "ro"
expect_eq "exec tmpfs writable" "$(kubectl exec kubectl-test -- sh -c 'echo ok >/tmp/f && cat /tmp/f')" "ok"
expect_eq "exec missing pod" "$(kubectl exec nosuch -- true 2>&1)" 'Error from server (NotFound): pods "nosuch" not found'
expect_eq "logs" "$(kubectl logs kubectl-test)" "started"
# kubectl top reads the metrics API (discovery, then PodMetrics): its quantities parse and show as cores and Mi.
top=$(kubectl top pod kubectl-test --no-headers 2>&1)
[[ $top =~ ^kubectl-test\ +[0-9]+m\ +[0-9]+Mi\ *$ ]] || fail "top pod: got [$top]"

# Every stream went over WebSocket v5: none fell back to SPDY (which this server refuses).
protocols=$(sort -u "$LLM_SANDBOX_TEST_KUBE_STATE/stream-protocols.log")
expect_eq "stream protocols" "$protocols" "websocket v5.channel.k8s.io"

expect_eq "delete" "$(kubectl delete pod kubectl-test --grace-period=1 2>&1)" 'pod "kubectl-test" deleted'
expect_eq "gone" "$(kubectl get pod kubectl-test 2>&1)" 'Error from server (NotFound): pods "kubectl-test" not found'

# kubectl run: its own generated pod, a command that finishes; logs after completion.
expect_eq "run" "$(kubectl run kubectl-run --image="$image" --restart=Never --image-pull-policy=IfNotPresent \
    --command -- sh -c 'echo from run' 2>&1)" "pod/kubectl-run created"
expect_eq "run completes" "$(kubectl wait --for=jsonpath='{.status.phase}'=Succeeded pod/kubectl-run \
    --timeout=120s 2>&1)" "pod/kubectl-run condition met"
expect_eq "run logs" "$(kubectl logs kubectl-run)" "from run"
expect_contains "run status column" "$(kubectl get pod kubectl-run)" "Completed"
expect_eq "run delete" "$(kubectl delete pod kubectl-run 2>&1)" 'pod "kubectl-run" deleted'

# kubectl attach -i: stdin reaches the container's main process (stdinOnce), its exit code lands in the status.
cat >"$manifest" <<EOF
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "kubectl-attach"},
 "spec": {"restartPolicy": "Never", "terminationGracePeriodSeconds": 1,
          "containers": [{"name": "main", "image": "$image", "imagePullPolicy": "IfNotPresent", "stdin": true,
                          "stdinOnce": true, "command": ["sh", "-c", "read x; echo got \$x; exit 4"]}]}}
EOF
kubectl create -f "$manifest" >/dev/null
kubectl wait --for=condition=Ready pod/kubectl-attach --timeout=120s >/dev/null
expect_eq "attach -i" "$(echo hello | kubectl attach -i kubectl-attach 2>/dev/null)" "got hello"
kubectl wait --for=jsonpath='{.status.phase}'=Failed pod/kubectl-attach --timeout=60s >/dev/null
expect_eq "attach exit in status" \
    "$(kubectl get pod kubectl-attach -o jsonpath='{.status.containerStatuses[0].state.terminated.exitCode}')" "4"
kubectl delete pod kubectl-attach >/dev/null

# The other credentials of the kubeconfig: a bearer token, a token file, and the restricted user's denial.
# Which identity each kubeconfig credential proves (kubectl auth whoami).
for pair in kube-test=llm-sandbox-admin kube-test-files=llm-sandbox-admin kube-test-token=llm-sandbox-token-admin \
    kube-test-token-file=llm-sandbox-token-admin kube-test-exec=llm-sandbox-token-admin \
    kube-test-insecure=llm-sandbox-token-admin kube-test-restricted=llm-sandbox-restricted; do
    expect_eq "whoami ${pair%%=*}" \
        "$(kubectl --context "${pair%%=*}" auth whoami -o jsonpath='{.status.userInfo.username}' 2>&1)" "${pair#*=}"
done
expect_eq "token context lists pods" "$(kubectl --context kube-test-token get pods -o name 2>&1)" ""
expect_contains "restricted denied" "$(kubectl --context kube-test-restricted create -f "$manifest" 2>&1)" \
    'pods is forbidden: User "llm-sandbox-restricted" cannot create resource "pods" in API group "" in the namespace "default"'

# kubectl auth can-i and create namespace POST protobuf bodies.
expect_eq "can-i create pods" "$(kubectl auth can-i create pods 2>&1)" "yes"
expect_eq "restricted can-i create pods/exec" \
    "$(kubectl --context kube-test-restricted auth can-i create pods --subresource=exec 2>&1)" "no"
expect_eq "restricted can-i list pods" "$(kubectl --context kube-test-restricted auth can-i list pods 2>&1)" "yes"
expect_eq "create namespace" "$(kubectl create namespace kubectl-test 2>&1)" "namespace/kubectl-test created"
expect_eq "namespace again" "$(kubectl create namespace kubectl-test 2>&1)" \
    'Error from server (AlreadyExists): namespaces "kubectl-test" already exists'

if [ $failures -ne 0 ]; then
    echo "$failures check(s) failed" >&2
    exit 1
fi
echo "kubectl: all checks passed"
