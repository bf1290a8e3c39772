#!/usr/bin/python3
"""The official Python client (Debian's python3-kubernetes) against the test API server: list, create, watch,
exec through kubernetes.stream (output and exit status, v4.channel.k8s.io), logs, delete, access reviews,
network policies and metrics. Run through with-apiserver.
"""

import os
import subprocess
import unittest
import uuid
import warnings

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException
from kubernetes.stream import stream

HERE = os.path.dirname(os.path.abspath(__file__))
IMAGE = subprocess.run([os.path.join(HERE, "test-image")], check=True, capture_output=True, text=True).stdout.strip()
NAMESPACE = "default"


def pod_manifest(name, command, labels=None):
    return client.V1Pod(
        metadata=client.V1ObjectMeta(name=name, labels=labels or {"app": "python-client-test"}),
        spec=client.V1PodSpec(
            restart_policy="Never",
            termination_grace_period_seconds=1,
            containers=[client.V1Container(
                name="main", image=IMAGE, image_pull_policy="IfNotPresent", command=command,
                security_context=client.V1SecurityContext(
                    run_as_user=21000, run_as_non_root=True, allow_privilege_escalation=False,
                    read_only_root_filesystem=True, capabilities=client.V1Capabilities(drop=["ALL"]),
                    seccomp_profile=client.V1SeccompProfile(type="RuntimeDefault")))]))


class PythonClientTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # The client library leaves its sockets to the garbage collector; that noise is not ours.
        warnings.simplefilter("ignore", ResourceWarning)
        config.load_kube_config()
        cls.core = client.CoreV1Api()

    def setUp(self):
        self.created = []

    def tearDown(self):
        for name in self.created:
            try:
                self.core.delete_namespaced_pod(name, NAMESPACE, grace_period_seconds=0)
            except ApiException as error:
                if error.status != 404:
                    raise

    def create_running(self, command, labels=None):
        """Creates a pod and waits for Running with a watch from the creation's resourceVersion."""
        name = f"py-{uuid.uuid4().hex[:8]}"
        created = self.core.create_namespaced_pod(NAMESPACE, pod_manifest(name, command, labels))
        self.created.append(name)
        phases = []
        for event in watch.Watch().stream(self.core.list_namespaced_pod, NAMESPACE,
                                          field_selector=f"metadata.name={name}",
                                          resource_version=created.metadata.resource_version, timeout_seconds=120):
            phases.append((event["type"], event["object"].status.phase))
            if event["object"].status.phase in ("Running", "Failed", "Succeeded"):
                break
        self.assertEqual(phases[-1][1], "Running", phases)
        return name

    def test_list_create_get(self):
        name = self.create_running(["sleep", "600"])
        listed = self.core.list_namespaced_pod(NAMESPACE, label_selector="app=python-client-test")
        self.assertIn(name, [p.metadata.name for p in listed.items])
        pod = self.core.read_namespaced_pod(name, NAMESPACE)
        self.assertEqual(pod.status.container_statuses[0].state.running is not None, True)
        self.assertEqual(pod.spec.node_name, "kube-test-node")

    def test_exec_reports_output_and_exit_status(self):
        name = self.create_running(["sleep", "600"])
        response = stream(self.core.connect_get_namespaced_pod_exec, name, NAMESPACE,
                          command=["sh", "-c", "echo out; echo err >&2; exit 3"],
                          stdout=True, stderr=True, stdin=False, tty=False, _preload_content=False)
        response.run_forever(timeout=60)
        self.assertEqual(response.read_stdout(), "out\n")
        self.assertEqual(response.read_stderr(), "err\n")
        self.assertEqual(response.returncode, 3)
        response.close()

    def test_exec_with_stdin(self):
        name = self.create_running(["sleep", "600"])
        response = stream(self.core.connect_get_namespaced_pod_exec, name, NAMESPACE,
                          command=["sh", "-c", "read line; echo got $line"],
                          stdout=True, stderr=True, stdin=True, tty=False, _preload_content=False)
        response.write_stdin("hello\n")
        response.run_forever(timeout=60)
        self.assertEqual(response.read_stdout(), "got hello\n")
        self.assertEqual(response.returncode, 0)
        response.close()

    def test_exec_preloaded_output(self):
        name = self.create_running(["sleep", "600"])
        output = stream(self.core.connect_get_namespaced_pod_exec, name, NAMESPACE, command=["echo", "hi"],
                        stdout=True, stderr=True, stdin=False, tty=False)
        self.assertEqual(output, "hi\n")

    def test_watch_sees_completion_and_deletion(self):
        name = f"py-{uuid.uuid4().hex[:8]}"
        created = self.core.create_namespaced_pod(NAMESPACE, pod_manifest(name, ["sh", "-c", "echo done; exit 4"]))
        self.created.append(name)
        events = []
        for event in watch.Watch().stream(self.core.list_namespaced_pod, NAMESPACE,
                                          field_selector=f"metadata.name={name}",
                                          resource_version=created.metadata.resource_version, timeout_seconds=120):
            events.append((event["type"], event["object"].status.phase))
            if event["object"].status.phase == "Failed":
                terminated = event["object"].status.container_statuses[0].state.terminated
                self.assertEqual(terminated.exit_code, 4)
                self.assertEqual(terminated.reason, "Error")
                break
        self.assertEqual(events[-1], ("MODIFIED", "Failed"))
        self.assertEqual(self.core.read_namespaced_pod_log(name, NAMESPACE), "done\n")
        listed = self.core.list_namespaced_pod(NAMESPACE, field_selector=f"metadata.name={name}")
        self.core.delete_namespaced_pod(name, NAMESPACE)
        kinds = []
        for event in watch.Watch().stream(self.core.list_namespaced_pod, NAMESPACE,
                                          field_selector=f"metadata.name={name}",
                                          resource_version=listed.metadata.resource_version, timeout_seconds=30):
            kinds.append(event["type"])
            if event["type"] == "DELETED":
                break
        # A finished pod goes at once: its deletion is the first event after the list.
        self.assertEqual(kinds, ["DELETED"])

    def test_errors_are_status_objects(self):
        with self.assertRaises(ApiException) as raised:
            self.core.read_namespaced_pod("does-not-exist", NAMESPACE)
        self.assertEqual(raised.exception.status, 404)
        self.assertIn('pods \\"does-not-exist\\" not found', raised.exception.body)

    def test_restricted_user_is_denied_and_reviews_say_so(self):
        restricted = client.CoreV1Api(config.new_client_from_config(context="kube-test-restricted"))
        restricted.list_namespaced_pod(NAMESPACE)
        with self.assertRaises(ApiException) as raised:
            restricted.create_namespaced_pod(NAMESPACE, pod_manifest("denied", ["true"]))
        self.assertEqual(raised.exception.status, 403)
        self.assertIn('cannot create resource \\"pods\\" in API group \\"\\" in the namespace \\"default\\"',
                      raised.exception.body)

        def review(api_client, verb, resource, subresource=None):
            body = client.V1SelfSubjectAccessReview(spec=client.V1SelfSubjectAccessReviewSpec(
                resource_attributes=client.V1ResourceAttributes(namespace=NAMESPACE, verb=verb, resource=resource,
                                                                subresource=subresource)))
            return client.AuthorizationV1Api(api_client).create_self_subject_access_review(body).status.allowed
        restricted_client = config.new_client_from_config(context="kube-test-restricted")
        self.assertFalse(review(restricted_client, "create", "pods"))
        self.assertTrue(review(restricted_client, "list", "pods"))
        self.assertTrue(review(client.ApiClient(), "create", "pods", "exec"))

    def test_deny_all_egress_policy_leaves_pod_without_network(self):
        networking = client.NetworkingV1Api()
        label = {"llm-sandbox/network": f"none-{uuid.uuid4().hex[:6]}"}
        policy = client.V1NetworkPolicy(
            metadata=client.V1ObjectMeta(name=f"deny-egress-{label['llm-sandbox/network']}"),
            spec=client.V1NetworkPolicySpec(pod_selector=client.V1LabelSelector(match_labels=label),
                                            policy_types=["Egress"]))
        networking.create_namespaced_network_policy(NAMESPACE, policy)
        try:
            isolated = self.create_running(["sleep", "600"], labels=label)
            connected = self.create_running(["sleep", "600"])
            interfaces = "cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d ' ' | sort | tr '\\n' ' '"
            self.assertEqual(stream(self.core.connect_get_namespaced_pod_exec, isolated, NAMESPACE,
                                    command=["sh", "-c", interfaces], stdout=True, stderr=True, stdin=False,
                                    tty=False).strip(), "lo")
            self.assertIn("eth0", stream(self.core.connect_get_namespaced_pod_exec, connected, NAMESPACE,
                                         command=["sh", "-c", interfaces], stdout=True, stderr=True, stdin=False,
                                         tty=False))
            names = [p.metadata.name for p in networking.list_namespaced_network_policy(NAMESPACE).items]
            self.assertIn(policy.metadata.name, names)
        finally:
            networking.delete_namespaced_network_policy(policy.metadata.name, NAMESPACE)

    def test_pod_metrics(self):
        name = self.create_running(["sleep", "600"])
        metrics = client.CustomObjectsApi().get_namespaced_custom_object(
            "metrics.k8s.io", "v1beta1", NAMESPACE, "pods", name)
        self.assertEqual(metrics["kind"], "PodMetrics")
        self.assertEqual(metrics["containers"][0]["name"], "main")
        # Canonical quantities as metrics-server writes them: "54584Ki" (or plain bytes), "1067211n" / "12m" / "0".
        self.assertRegex(metrics["containers"][0]["usage"]["memory"], r"^[0-9]+(Ki|Mi|Gi)?$")
        self.assertRegex(metrics["containers"][0]["usage"]["cpu"], r"^[0-9]+[num]?$")
        self.assertRegex(metrics["window"], r"^[0-9.]+s$")


if __name__ == "__main__":
    unittest.main(verbosity=2)
