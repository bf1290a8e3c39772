#!/usr/bin/python3
"""The test API server's wire protocol at the byte level, as the C++ backend sees it: the exact metav1.Status
bodies of each failure class, watch streams, pod status for failures (image pull, scheduling, non-root,
deadline), the Docker settings a pod turns into, and exec/attach over raw WebSocket (v5 stdin close, v4).
Run through with-apiserver.
"""

import base64
import http.client
import json
import os
import signal
import ssl
import subprocess
import sys
import unittest
import urllib.parse
import uuid
import warnings

import websocket

HERE = os.path.dirname(os.path.abspath(__file__))
STATE = os.environ["LLM_SANDBOX_TEST_KUBE_STATE"]
SERVER = os.environ["LLM_SANDBOX_TEST_KUBE_SERVER"]
HOST, PORT = SERVER.removeprefix("https://").split(":")
IMAGE = subprocess.run([os.path.join(HERE, "test-image")], check=True, capture_output=True, text=True).stdout.strip()
LABEL = "io.llm-sandbox.kube-test-apiserver"


def read(name):
    with open(os.path.join(STATE, name), encoding="utf-8") as f:
        return f.read().strip()


def tls(client_cert=True):
    context = ssl.create_default_context(cafile=os.path.join(STATE, "ca.crt"))
    if client_cert:
        context.load_cert_chain(os.path.join(STATE, "client.crt"), os.path.join(STATE, "client.key"))
    return context


def call(method, path, body=None, token=None, client_cert=True, headers=None):
    """(status, parsed body or text, response headers)."""
    connection = http.client.HTTPSConnection(HOST, int(PORT), context=tls(client_cert and token is None))
    all_headers = {"Content-Type": "application/json", **(headers or {})}
    if token:
        all_headers["Authorization"] = f"Bearer {token}"
    connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=all_headers)
    response = connection.getresponse()
    data = response.read().decode()
    connection.close()
    try:
        data = json.loads(data)
    except ValueError:
        pass
    return response.status, data, response.headers


def watch(path, until, timeout=120):
    """Reads watch events (one JSON object per line) until `until(event)` is true; returns them all."""
    connection = http.client.HTTPSConnection(HOST, int(PORT), context=tls(), timeout=timeout)
    connection.request("GET", path + ("&" if "?" in path else "?") + f"watch=true&timeoutSeconds={timeout}")
    response = connection.getresponse()
    events = []
    try:
        while line := response.readline():
            events.append(json.loads(line))
            if until(events[-1]):
                break
    finally:
        response.close()
        connection.close()
    return events


def pod(name, command=None, **spec):
    container = {"name": "main", "image": IMAGE, "imagePullPolicy": "IfNotPresent",
                 "command": command or ["sleep", "600"]}
    container.update(spec.pop("container", {}))
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "labels": {"test": "protocol"}},
            "spec": {"restartPolicy": "Never", "terminationGracePeriodSeconds": 1, "containers": [container],
                     **spec}}


PODS = "/api/v1/namespaces/default/pods"


def status(code, reason, message, details=None):
    body = {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure", "message": message,
            "reason": reason}
    if details is not None:
        body["details"] = details
    body["code"] = code
    return body


class ProtocolTest(unittest.TestCase):
    def setUp(self):
        # http.client leaves a streamed (watch) response's TLS socket to the garbage collector.
        warnings.simplefilter("ignore", ResourceWarning)
        self.created = []

    def tearDown(self):
        for name in self.created:
            call("DELETE", f"{PODS}/{name}?gracePeriodSeconds=0")

    def create(self, body):
        code, created, _ = call("POST", PODS, body)
        self.assertEqual(code, 201, created)
        self.created.append(body["metadata"]["name"])
        return created

    def wait_for(self, name, condition, since):
        events = watch(f"{PODS}?fieldSelector=metadata.name%3D{name}&resourceVersion={since}",
                       lambda e: condition(e["object"]))
        self.assertTrue(condition(events[-1]["object"]), events[-1])
        return events[-1]["object"]

    def running(self, body):
        created = self.create(body)
        return self.wait_for(body["metadata"]["name"], lambda p: p["status"].get("phase") == "Running",
                             created["metadata"]["resourceVersion"])

    # ---- errors -------------------------------------------------------------------------------------------------
    def test_anonymous_request_is_unauthorized(self):
        self.assertEqual(call("GET", PODS, client_cert=False)[:2],
                         (401, status(401, "Unauthorized", "Unauthorized")))
        self.assertEqual(call("GET", PODS, token="wrong")[:2], (401, status(401, "Unauthorized", "Unauthorized")))

    def test_missing_pod_is_not_found(self):
        self.assertEqual(call("GET", f"{PODS}/nosuch")[:2],
                         (404, status(404, "NotFound", 'pods "nosuch" not found', {"name": "nosuch", "kind": "pods"})))

    def test_duplicate_pod_already_exists(self):
        name = f"dup-{uuid.uuid4().hex[:6]}"
        self.create(pod(name))
        self.assertEqual(call("POST", PODS, pod(name))[:2],
                         (409, status(409, "AlreadyExists", f'pods "{name}" already exists',
                                      {"name": name, "kind": "pods"})))

    def test_unknown_fields_fail_strict_decoding(self):
        body = pod("strict")
        body["spec"]["foo"] = 1
        body["spec"]["containers"][0]["bar"] = True
        self.assertEqual(call("POST", PODS + "?fieldValidation=Strict", body)[:2], (400, status(
            400, "BadRequest", 'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field '
                               '"spec.containers[0].bar", unknown field "spec.foo"')))

    def test_unknown_fields_warn_by_default(self):
        body = pod(f"warn-{uuid.uuid4().hex[:6]}")
        body["spec"]["foo"] = 1
        code, created, headers = call("POST", PODS, body)
        self.created.append(body["metadata"]["name"])
        self.assertEqual(code, 201)
        self.assertEqual(headers["Warning"], '299 - "unknown field \\"spec.foo\\""')
        self.assertNotIn("foo", created["spec"])

    def test_invalid_pod_is_unprocessable(self):
        body = pod("invalid")
        del body["spec"]["containers"][0]["image"]
        body["spec"]["activeDeadlineSeconds"] = 0
        self.assertEqual(call("POST", PODS, body)[:2], (422, status(
            422, "Invalid", 'Pod "invalid" is invalid: [spec.containers[0].image: Required value, '
                            'spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive]',
            {"name": "invalid", "kind": "Pod", "causes": [
                {"reason": "FieldValueRequired", "message": "Required value", "field": "spec.containers[0].image"},
                {"reason": "FieldValueInvalid", "message": "Invalid value: 0: must be between 1 and 2147483647, "
                                                           "inclusive", "field": "spec.activeDeadlineSeconds"}]})))

    def test_rbac_denial_names_verb_and_resource(self):
        token = read("restricted-token")
        self.assertEqual(call("POST", PODS, pod("denied"), token=token)[:2], (403, status(
            403, "Forbidden", 'pods is forbidden: User "llm-sandbox-restricted" cannot create resource "pods" in API '
                              'group "" in the namespace "default"', {"kind": "pods"})))
        self.assertEqual(call("POST", f"{PODS}/x/exec?command=true&stdout=true", token=token)[:2], (403, status(
            403, "Forbidden", 'pods "x" is forbidden: User "llm-sandbox-restricted" cannot create resource '
                              '"pods/exec" in API group "" in the namespace "default"', {"name": "x", "kind": "pods"})))
        self.assertEqual(call("GET", PODS, token=token)[0], 200)

    def test_access_review_answers_per_user(self):
        review = {"apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectAccessReview",
                  "spec": {"resourceAttributes": {"namespace": "default", "verb": "create", "resource": "pods",
                                                  "subresource": "attach"}}}
        path = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"
        code, answer, _ = call("POST", path, review, token=read("token"))
        self.assertEqual((code, answer["status"]["allowed"]), (201, True))
        code, answer, _ = call("POST", path, review, token=read("restricted-token"))
        self.assertEqual((code, answer["status"]), (201, {"allowed": False}))

    def test_quota_refusal(self):
        namespace = f"quota-{uuid.uuid4().hex[:6]}"
        self.assertEqual(call("POST", "/api/v1/namespaces", {"metadata": {"name": namespace}})[0], 201)
        quota = {"metadata": {"name": "two-pods"}, "spec": {"hard": {"pods": "1"}}}
        self.assertEqual(call("POST", f"/api/v1/namespaces/{namespace}/resourcequotas", quota)[0], 201)
        pods = f"/api/v1/namespaces/{namespace}/pods"
        self.assertEqual(call("POST", pods, pod("first"))[0], 201)
        try:
            self.assertEqual(call("POST", pods, pod("second"))[:2], (403, status(
                403, "Forbidden", 'pods "second" is forbidden: exceeded quota: two-pods, requested: pods=1, '
                                  'used: pods=1, limited: pods=1', {"name": "second", "kind": "pods"})))
            # Admission sees a generateName pod without a name.
            generated = pod("")
            generated["metadata"] = {"generateName": "sandbox-"}
            self.assertEqual(call("POST", pods, generated)[:2], (403, status(
                403, "Forbidden", "pods is forbidden: exceeded quota: two-pods, requested: pods=1, used: pods=1, "
                                  "limited: pods=1", {"kind": "pods"})))
        finally:
            call("DELETE", f"{pods}/first?gracePeriodSeconds=0")

    def test_unknown_runtime_class_is_refused(self):
        self.assertEqual(call("POST", PODS, pod("gvisor", runtimeClassName="gvisor"))[:2], (403, status(
            403, "Forbidden", 'pods "gvisor" is forbidden: pod rejected: RuntimeClass "gvisor" not found',
            {"name": "gvisor", "kind": "pods"})))

    def test_runtime_classes_list_what_the_node_offers(self):
        # This server offers none (no --runtime-class): the list is empty and a class by name is not found.
        status_code, body = call("GET", "/apis/node.k8s.io/v1/runtimeclasses")[:2]
        self.assertEqual((status_code, body["kind"], body["items"]), (200, "RuntimeClassList", []))
        self.assertEqual(call("GET", "/apis/node.k8s.io/v1/runtimeclasses/gvisor")[:2], (404, status(
            404, "NotFound", 'runtimeclasses.node.k8s.io "gvisor" not found',
            {"name": "gvisor", "group": "node.k8s.io", "kind": "runtimeclasses"})))

    # ---- pod status -------------------------------------------------------------------------------------------
    def test_image_pull_failure_is_reported(self):
        name = f"pull-{uuid.uuid4().hex[:6]}"
        image = "127.0.0.1:9/llm-sandbox/missing:1"
        created = self.create(pod(name, container={"image": image}))

        def reason(p):
            statuses = p["status"].get("containerStatuses") or [{}]
            return (statuses[0].get("state") or {}).get("waiting", {}).get("reason")
        pulled = self.wait_for(name, lambda p: reason(p) == "ErrImagePull", created["metadata"]["resourceVersion"])
        message = pulled["status"]["containerStatuses"][0]["state"]["waiting"]["message"]
        self.assertTrue(message.startswith("rpc error: code = Unknown desc = Error response from daemon: "), message)
        self.assertIn("127.0.0.1:9", message)
        backoff = self.wait_for(name, lambda p: reason(p) == "ImagePullBackOff", pulled["metadata"]["resourceVersion"])
        self.assertEqual(backoff["status"]["containerStatuses"][0]["state"]["waiting"]["message"],
                         f'Back-off pulling image "{image}": ErrImagePull: {message}')
        self.assertEqual(backoff["status"]["phase"], "Pending")

    def test_unmatched_node_selector_is_unschedulable(self):
        name = f"sched-{uuid.uuid4().hex[:6]}"
        created = self.create(pod(name, nodeSelector={"disktype": "ssd"}))
        scheduled = self.wait_for(name, lambda p: any(c["type"] == "PodScheduled" for c in
                                                      p["status"].get("conditions") or []),
                                  created["metadata"]["resourceVersion"])
        condition = next(c for c in scheduled["status"]["conditions"] if c["type"] == "PodScheduled")
        self.assertEqual((condition["status"], condition["reason"]), ("False", "Unschedulable"))
        self.assertIn("didn't match Pod's node affinity/selector", condition["message"])

    def test_run_as_non_root_refuses_a_root_image(self):
        name = f"root-{uuid.uuid4().hex[:6]}"
        created = self.create(pod(name, container={"securityContext": {"runAsNonRoot": True}}))

        def refused(p):
            return ((p["status"].get("containerStatuses") or [{}])[0].get("state") or {}).get("waiting", {}).get(
                "reason") == "CreateContainerConfigError"
        pending = self.wait_for(name, refused, created["metadata"]["resourceVersion"])
        self.assertTrue(pending["status"]["containerStatuses"][0]["state"]["waiting"]["message"].startswith(
            "container has runAsNonRoot and image will run as root"))

    def test_active_deadline_fails_the_pod(self):
        name = f"deadline-{uuid.uuid4().hex[:6]}"
        created = self.create(pod(name, activeDeadlineSeconds=1))
        failed = self.wait_for(name, lambda p: p["status"].get("phase") == "Failed",
                               created["metadata"]["resourceVersion"])
        self.assertEqual(failed["status"]["reason"], "DeadlineExceeded")

    def test_exit_code_and_logs_of_a_finished_pod(self):
        name = f"exit-{uuid.uuid4().hex[:6]}"
        created = self.create(pod(name, ["sh", "-c", "echo out; echo err >&2; exit 7"]))
        done = self.wait_for(name, lambda p: p["status"].get("phase") in ("Succeeded", "Failed"),
                             created["metadata"]["resourceVersion"])
        terminated = done["status"]["containerStatuses"][0]["state"]["terminated"]
        self.assertEqual((done["status"]["phase"], terminated["exitCode"], terminated["reason"]), ("Failed", 7, "Error"))
        # Both streams, each line whole (their order is the order two pipes were read, as with the real kubelet).
        self.assertEqual(sorted(call("GET", f"{PODS}/{name}/log")[1].splitlines()), ["err", "out"])

    def test_missing_executable_is_a_start_error(self):
        name = f"start-{uuid.uuid4().hex[:6]}"
        created = self.create(pod(name, ["/no/such/program"]))
        failed = self.wait_for(name, lambda p: p["status"].get("phase") == "Failed",
                               created["metadata"]["resourceVersion"])
        terminated = failed["status"]["containerStatuses"][0]["state"]["terminated"]
        self.assertEqual((terminated["exitCode"], terminated["reason"]), (128, "StartError"))
        self.assertIn("/no/such/program", terminated["message"])

    def test_pod_becomes_docker_settings(self):
        name = f"settings-{uuid.uuid4().hex[:6]}"
        body = pod(name, container={
            "securityContext": {"runAsUser": 21000, "runAsGroup": 21000, "runAsNonRoot": True,
                                "allowPrivilegeEscalation": False, "readOnlyRootFilesystem": True,
                                "capabilities": {"drop": ["ALL"]}, "seccompProfile": {"type": "RuntimeDefault"}},
            "resources": {"limits": {"cpu": "500m", "memory": "128Mi"}},
            "workingDir": "/work", "env": [{"name": "GREETING", "value": "hello"}],
            "volumeMounts": [{"name": "work", "mountPath": "/work"}]},
            volumes=[{"name": "work", "emptyDir": {"medium": "Memory", "sizeLimit": "8Mi"}}])
        self.running(body)
        container_id = call("GET", f"{PODS}/{name}")[1]["status"]["containerStatuses"][0]["containerID"]
        inspected = json.loads(subprocess.run(["docker", "inspect", container_id.removeprefix("docker://")],
                                              check=True, capture_output=True, text=True).stdout)[0]
        host = inspected["HostConfig"]
        self.assertEqual(inspected["Config"]["User"], "21000:21000")
        self.assertEqual(inspected["Config"]["WorkingDir"], "/work")
        self.assertIn("GREETING=hello", inspected["Config"]["Env"])
        self.assertEqual(host["NanoCpus"], 500_000_000)
        self.assertEqual(host["Memory"], 128 * 2**20)
        self.assertEqual(host["PidsLimit"], 256)
        self.assertEqual(host["CapDrop"], ["ALL"])
        self.assertEqual(host["SecurityOpt"], ["no-new-privileges"])
        self.assertTrue(host["ReadonlyRootfs"])
        self.assertEqual(sorted(u["Name"] for u in host["Ulimits"]), ["nofile", "nproc"])
        self.assertEqual(host["NetworkMode"], "bridge")
        out = exec_v5(name, ["sh", "-c", "df -k /work | tail -n 1; cp /bin/true /work/t && /work/t && echo writable"])
        self.assertEqual(out["status"], {"metadata": {}, "status": "Success"})
        self.assertIn("8192", out["stdout"])
        self.assertIn("writable", out["stdout"])  # and programs run from it, as from kubelet's emptyDir

    def test_delete_is_graceful_then_gone(self):
        name = f"grace-{uuid.uuid4().hex[:6]}"
        running = self.running(pod(name))
        code, deleted, _ = call("DELETE", f"{PODS}/{name}", {"kind": "DeleteOptions", "apiVersion": "v1",
                                                              "gracePeriodSeconds": 1})
        self.assertEqual((code, deleted["metadata"]["deletionGracePeriodSeconds"]), (200, 1))
        self.assertIn("deletionTimestamp", deleted["metadata"])
        events = watch(f"{PODS}?fieldSelector=metadata.name%3D{name}&resourceVersion="
                       f"{running['metadata']['resourceVersion']}", lambda e: e["type"] == "DELETED")
        self.assertEqual(events[-1]["type"], "DELETED")
        self.assertEqual(call("GET", f"{PODS}/{name}")[0], 404)

    def test_list_selectors_and_watch_replay(self):
        name = f"select-{uuid.uuid4().hex[:6]}"
        before = call("GET", PODS)[1]["metadata"]["resourceVersion"]
        body = pod(name)
        body["metadata"]["labels"]["llm-sandbox/owner"] = name
        self.create(body)
        names = lambda query: [p["metadata"]["name"] for p in call("GET", f"{PODS}?{query}")[1]["items"]]
        self.assertEqual(names(f"labelSelector=llm-sandbox/owner%3D{name}"), [name])
        self.assertIn(name, names("labelSelector=llm-sandbox/owner"))
        self.assertNotIn(name, names("labelSelector=!llm-sandbox/owner"))
        self.assertEqual(names(f"fieldSelector=metadata.name%3D{name}"), [name])
        first = watch(f"{PODS}?labelSelector=llm-sandbox/owner%3D{name}&resourceVersion={before}", lambda e: True)
        self.assertEqual(first[0]["type"], "ADDED")
        self.assertEqual(first[0]["object"]["metadata"]["name"], name)

    def test_delete_collection_by_label(self):
        owner = f"owner-{uuid.uuid4().hex[:6]}"
        for i in range(2):
            body = pod(f"{owner}-{i}")
            body["metadata"]["labels"]["llm-sandbox/owner"] = owner
            self.create(body)
        code, deleted, _ = call("DELETE", f"{PODS}?labelSelector=llm-sandbox/owner%3D{owner}&gracePeriodSeconds=0")
        self.assertEqual((code, deleted["kind"]), (200, "PodList"))
        self.assertEqual(sorted(p["metadata"]["name"] for p in deleted["items"]), [f"{owner}-0", f"{owner}-1"])
        self.assertEqual(call("GET", f"{PODS}?labelSelector=llm-sandbox/owner%3D{owner}")[1]["items"], [])

    def test_same_name_after_immediate_delete_is_a_new_pod(self):
        name = f"again-{uuid.uuid4().hex[:6]}"
        first = self.running(pod(name))
        self.assertEqual(call("DELETE", f"{PODS}/{name}?gracePeriodSeconds=0")[0], 200)
        second = self.running(pod(name))
        self.assertNotEqual(second["metadata"]["uid"], first["metadata"]["uid"])
        self.assertEqual(exec_v5(name, ["echo", "alive"])["stdout"], "alive\n")
        self.assertEqual(call("GET", f"{PODS}/{name}")[1]["metadata"]["uid"], second["metadata"]["uid"])

    def test_merge_patch_changes_labels_not_the_spec(self):
        name = f"patch-{uuid.uuid4().hex[:6]}"
        self.create(pod(name))
        merge = {"Content-Type": "application/merge-patch+json"}
        code, patched, _ = call("PATCH", f"{PODS}/{name}", {"metadata": {"labels": {"in-use": "yes", "test": None}}},
                                headers=merge)
        self.assertEqual((code, patched["metadata"]["labels"]), (200, {"in-use": "yes"}))
        code, refused, _ = call("PATCH", f"{PODS}/{name}", {"spec": {"restartPolicy": "Always"}}, headers=merge)
        self.assertEqual((code, refused["reason"]), (422, "Invalid"))
        self.assertTrue(refused["message"].startswith(f'Pod "{name}" is invalid: spec: Forbidden: pod updates may '
                                                      f'not change fields other than'), refused["message"])

    def test_unknown_path_and_method(self):
        self.assertEqual(call("GET", "/api/v1/namespaces/default/services")[:2], (404, status(
            404, "NotFound", "the server could not find the requested resource", {})))
        self.assertEqual(call("PUT", "/api/v1/namespaces/default/pods")[:2], (405, status(
            405, "MethodNotAllowed", "the server does not allow this method on the requested resource", {})))

    # ---- streams ------------------------------------------------------------------------------------------------
    def test_websocket_token_as_subprotocol(self):
        name = f"wstoken-{uuid.uuid4().hex[:6]}"
        self.running(pod(name))
        token = base64.urlsafe_b64encode(read("token").encode()).decode().rstrip("=")
        out = exec_v5(name, ["echo", "hi"], protocols=["v5.channel.k8s.io",
                                                      f"base64url.bearer.authorization.k8s.io.{token}"],
                      authorization=False)
        self.assertEqual((out["protocol"], out["stdout"]), ("v5.channel.k8s.io", "hi\n"))

    def test_exec_v5_closes_stdin_with_channel_255(self):
        name = f"stdin-{uuid.uuid4().hex[:6]}"
        self.running(pod(name))
        out = exec_v5(name, ["sh", "-c", "cat; echo end; exit 3"], stdin=b"from stdin\n")
        self.assertEqual(out["stdout"], "from stdin\nend\n")
        self.assertEqual(out["status"], {
            "metadata": {}, "status": "Failure", "reason": "NonZeroExitCode",
            "message": "command terminated with non-zero exit code: error executing command [sh -c cat; echo end; "
                       "exit 3], exit code 3",
            "details": {"causes": [{"reason": "ExitCode", "message": "3"}]}})

    def test_tty_exec_takes_resize(self):
        name = f"tty-{uuid.uuid4().hex[:6]}"
        self.running(pod(name))
        # The resize is applied before the next message (stdin) is forwarded, so `stty` sees it. Stdin stays open:
        # ending a terminal's input hangs it up, and the shell might go before it writes.
        out = exec_v5(name, ["sh", "-c", "read x; stty size; tty"], stdin=b"go\n", tty=True, resize=(100, 30),
                      close_stdin=False)
        self.assertIn("30 100\r\n/dev/pts/", out["stdout"])
        self.assertEqual(out["status"], {"metadata": {}, "status": "Success"})

    def test_subprotocol_negotiation(self):
        name = f"proto-{uuid.uuid4().hex[:6]}"
        self.running(pod(name))
        self.assertEqual(exec_v5(name, ["true"], protocols=["v4.channel.k8s.io"])["protocol"], "v4.channel.k8s.io")
        self.assertEqual(exec_v5(name, ["true"], protocols=["v5.channel.k8s.io", "v4.channel.k8s.io"])["protocol"],
                         "v5.channel.k8s.io")
        with self.assertRaises(websocket.WebSocketBadStatusException):
            exec_v5(name, ["true"], protocols=["v3.channel.k8s.io"])

    def test_attach_feeds_stdin_and_pod_reports_exit(self):
        name = f"attach-{uuid.uuid4().hex[:6]}"
        running = self.running(pod(name, ["sh", "-c", "read line; echo got $line; exit 5"],
                                   container={"stdin": True, "stdinOnce": True}))
        out = exec_v5(name, None, stdin=b"hello\n")
        self.assertEqual(out["stdout"], "got hello\n")
        self.assertEqual(out["status"], {"metadata": {}, "status": "Success"})
        done = self.wait_for(name, lambda p: p["status"].get("phase") == "Failed",
                             running["metadata"]["resourceVersion"])
        self.assertEqual(done["status"]["containerStatuses"][0]["state"]["terminated"]["exitCode"], 5)


def exec_v5(name, command, stdin=None, protocols=("v5.channel.k8s.io", "v4.channel.k8s.io"), authorization=True,
            tty=False, resize=None, close_stdin=True):
    """Runs exec (or attach when command is None) over a raw WebSocket; returns stdout, stderr, status, protocol."""
    params = [("stdout", "true"), ("stderr", "false" if tty else "true")]
    params += ([("stdin", "true")] if stdin is not None else []) + ([("tty", "true")] if tty else [])
    params += [("command", c) for c in command or []]
    sub = "exec" if command is not None else "attach"
    url = f"wss://{HOST}:{PORT}{PODS}/{name}/{sub}?{urllib.parse.urlencode(params)}"
    header = [f"Authorization: Bearer {read('token')}"] if authorization else []
    ws = websocket.create_connection(url, subprotocols=list(protocols), header=header,
                                     sslopt={"ca_certs": os.path.join(STATE, "ca.crt")}, timeout=60)
    result = {"stdout": "", "stderr": "", "status": None, "protocol": ws.getsubprotocol()}
    try:
        if resize is not None:
            ws.send_binary(b"\x04" + json.dumps({"Width": resize[0], "Height": resize[1]}).encode())
        if stdin is not None:
            ws.send_binary(b"\x00" + stdin)
            if close_stdin:
                ws.send_binary(b"\xff\x00")  # v5: close stdin
        while True:
            opcode, data = ws.recv_data()
            if opcode == websocket.ABNF.OPCODE_CLOSE:
                break
            if not data:
                continue
            if data[0] == 1:
                result["stdout"] += data[1:].decode()
            elif data[0] == 2:
                result["stderr"] += data[1:].decode()
            elif data[0] == 3:
                result["status"] = json.loads(data[1:])
    except websocket.WebSocketConnectionClosedException:
        pass
    finally:
        ws.close()
    return result


class CleanupTest(unittest.TestCase):
    def test_sigterm_removes_the_servers_containers(self):
        """A second server of its own: SIGTERM must leave none of its containers behind."""
        import tempfile
        with tempfile.TemporaryDirectory() as state:
            server = subprocess.Popen([sys.executable, os.path.join(HERE, "apiserver", "kube_test_apiserver.py"),
                                       "--state-dir", state], stdout=subprocess.PIPE, text=True)
            try:
                ready = server.stdout.readline()
                self.assertTrue(ready.startswith("READY "), ready)
                env = dict(os.environ, KUBECONFIG=os.path.join(state, "kubeconfig"))
                subprocess.run(["kubectl", "run", "cleanup", f"--image={IMAGE}", "--restart=Never",
                                "--image-pull-policy=IfNotPresent", "--command", "--", "sleep", "600"],
                               env=env, check=True, capture_output=True)
                subprocess.run(["kubectl", "wait", "--for=condition=Ready", "pod/cleanup", "--timeout=60s"],
                               env=env, check=True, capture_output=True)
                mine = f"label={LABEL}.pid={server.pid}"
                listed = lambda: subprocess.run(["docker", "ps", "-aq", "--filter", mine], check=True,
                                                capture_output=True, text=True).stdout.split()
                self.assertEqual(len(listed()), 1)
            finally:
                server.send_signal(signal.SIGTERM)
                server.wait(timeout=60)
                server.stdout.close()
            self.assertEqual(listed(), [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
