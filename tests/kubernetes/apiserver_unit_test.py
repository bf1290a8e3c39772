#!/usr/bin/python3
"""The test API server's pure parts, without Docker or a network: quantities, strict decoding, validation
messages, Kubernetes' command rule, non-root checks, network policy selection, selectors, protobuf bodies and the
wording of Status errors.
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "apiserver"))

import container_spec  # noqa: E402
import kubestatus  # noqa: E402
import metrics  # noqa: E402
import protobuf_body  # noqa: E402
import query_selectors  # noqa: E402
import schema  # noqa: E402
from store import Store  # noqa: E402

POD_REF = {"metadata": {"name": "p", "namespace": "default", "uid": "u-1"}, "spec": {}}


def container(**fields):
    return {"name": "main", "image": "img", **fields}


class QuantityTest(unittest.TestCase):
    def test_suffixes(self):
        self.assertEqual(schema.parse_quantity("500m"), 0.5)
        self.assertEqual(schema.parse_quantity("2"), 2)
        self.assertEqual(schema.parse_quantity("128Mi"), 128 * 2**20)
        self.assertEqual(schema.parse_quantity("1G"), 1e9)
        self.assertEqual(schema.parse_quantity("1e3"), 1000)

    def test_rejects_what_is_not_a_quantity(self):
        self.assertIsNone(schema.parse_quantity("lots"))
        self.assertIsNone(schema.parse_quantity("1 Gi"))


class StrictDecodingTest(unittest.TestCase):
    def test_unknown_fields_are_reported_with_their_paths(self):
        pod = {"metadata": {"name": "x", "bogus": 1},
               "spec": {"containers": [container(), container(name="b", extra=True)], "foo": {}}}
        self.assertEqual(schema.unknown_fields(pod, schema.POD),
                         ["metadata.bogus", "spec.containers[1].extra", "spec.foo"])

    def test_maps_and_opaque_fields_take_any_key(self):
        pod = {"metadata": {"name": "x", "labels": {"any/key": "v"}},
               "spec": {"containers": [container(livenessProbe={"whatever": 1},
                                                 resources={"limits": {"ephemeral-storage": "1Gi"}})]}}
        self.assertEqual(schema.unknown_fields(pod, schema.POD), [])

    def test_drop_unknown_keeps_the_rest(self):
        pod = {"metadata": {"name": "x"}, "spec": {"containers": [container(extra=1)], "foo": 1}}
        schema.drop_unknown(pod, schema.POD)
        self.assertEqual(pod, {"metadata": {"name": "x"}, "spec": {"containers": [container()]}})


class ValidationTest(unittest.TestCase):
    def rendered(self, pod):
        return [item[3] for item in schema.validate_pod(pod)]

    def test_valid_hardened_pod_passes(self):
        pod = {"metadata": {"name": "ok"}, "spec": {
            "restartPolicy": "Never", "activeDeadlineSeconds": 30,
            "containers": [container(
                securityContext={"runAsUser": 1000, "allowPrivilegeEscalation": False,
                                 "seccompProfile": {"type": "Localhost", "localhostProfile": "p.json"}},
                resources={"limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"cpu": "500m"}},
                volumeMounts=[{"name": "tmp", "mountPath": "/tmp"}])],
            "volumes": [{"name": "tmp", "emptyDir": {"medium": "Memory", "sizeLimit": "64Mi"}}]}}
        self.assertEqual(self.rendered(pod), [])

    def test_messages_name_field_and_value(self):
        pod = {"metadata": {"name": "Bad_Name"}, "spec": {
            "restartPolicy": "Sometimes",
            "containers": [container(image="", imagePullPolicy="Maybe",
                                     resources={"limits": {"cpu": "1"}, "requests": {"cpu": "2"}},
                                     volumeMounts=[{"name": "missing", "mountPath": "/m"}])]}}
        rendered = self.rendered(pod)
        self.assertIn('metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of '
                      "lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric "
                      "character (e.g. 'example.com', regex used for validation is "
                      "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')", rendered)
        self.assertIn("spec.containers[0].image: Required value", rendered)
        self.assertIn('spec.containers[0].imagePullPolicy: Unsupported value: "Maybe": supported values: "Always", '
                      '"IfNotPresent", "Never"', rendered)
        self.assertIn('spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu '
                      'limit of 1', rendered)
        self.assertIn('spec.containers[0].volumeMounts[0].name: Not found: "missing"', rendered)
        self.assertIn('spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", '
                      '"Never"', rendered)

    def test_labels_node_selector_env_and_resource_names(self):
        pod = {"metadata": {"name": "x", "labels": {"owner": "pid 12", "bad key": "v", "llm-sandbox/ok": "1"}},
               "spec": {"nodeSelector": {"disk": "ssd!"},
                        "containers": [container(env=[{"name": "1BAD", "value": ""}],
                                                 resources={"limits": {"gpu": "1"}})]}}
        rendered = self.rendered(pod)
        self.assertIn('metadata.labels: Invalid value: "pid 12": a valid label must be an empty string or consist of '
                      "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
                      "character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is "
                      "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')", rendered)
        self.assertTrue(any(r.startswith('metadata.labels: Invalid value: "bad key": name part must consist of')
                            for r in rendered), rendered)
        self.assertTrue(any(r.startswith('spec.nodeSelector: Invalid value: "ssd!"') for r in rendered), rendered)
        self.assertTrue(any(r.startswith('spec.containers[0].env[0].name: Invalid value: "1BAD": a valid '
                                         'environment variable name') for r in rendered), rendered)
        self.assertIn('spec.containers[0].resources.limits[gpu]: Invalid value: "gpu": must be a standard resource '
                      'for containers', rendered)
        self.assertEqual(len(rendered), 5, rendered)

    def test_invalid_status_lists_several_errors_in_brackets(self):
        error = kubestatus.invalid("Pod", "x", [("a", "FieldValueRequired", "Required value", "a: Required value"),
                                                ("b", "FieldValueRequired", "Required value", "b: Required value")])
        self.assertEqual(error.body["message"], 'Pod "x" is invalid: [a: Required value, b: Required value]')
        self.assertEqual(error.code, 422)


class ContainerSpecTest(unittest.TestCase):
    IMAGE = {"Entrypoint": ["/entry"], "Cmd": ["default"], "User": "", "WorkingDir": "/w"}

    def test_command_and_args_follow_the_kubernetes_rule(self):
        self.assertEqual(container_spec.argv({}, self.IMAGE), ["/entry", "default"])
        self.assertEqual(container_spec.argv({"args": ["a"]}, self.IMAGE), ["/entry", "a"])
        self.assertEqual(container_spec.argv({"command": ["/c"]}, self.IMAGE), ["/c"])
        self.assertEqual(container_spec.argv({"command": ["/c"], "args": ["a"]}, self.IMAGE), ["/c", "a"])

    def test_run_as_non_root_refuses_root(self):
        pod = dict(POD_REF, spec={"securityContext": {"runAsNonRoot": True}})
        with self.assertRaises(container_spec.ConfigError) as raised:
            container_spec.user_setting(container(), pod, self.IMAGE)
        self.assertEqual(str(raised.exception), 'container has runAsNonRoot and image will run as root (pod: '
                                                '"p_default(u-1)", container: main)')
        with self.assertRaises(container_spec.ConfigError):
            container_spec.user_setting(container(securityContext={"runAsUser": 0}), pod, self.IMAGE)
        self.assertEqual(container_spec.user_setting(container(securityContext={"runAsUser": 1000}), pod,
                                                     self.IMAGE), "1000")

    def test_container_security_context_wins_over_the_pods(self):
        pod = dict(POD_REF, spec={"securityContext": {"runAsUser": 5, "runAsGroup": 6}})
        self.assertEqual(container_spec.user_setting(container(securityContext={"runAsUser": 7}), pod, self.IMAGE),
                         "7:6")

    def test_hardened_container_becomes_docker_settings(self):
        pod = dict(POD_REF, spec={})
        options = {"labels": {}, "pids_limit": 64, "ulimits": [("nofile", 10, 20)], "seccomp_root": "/nonexistent",
                   "network_mode": "none", "mounts": [], "tmpfs": {"/work": "mode=1777,exec"}}
        body = container_spec.create_body(pod, container(
            command=["sh"], workingDir="/work",
            securityContext={"runAsUser": 1000, "readOnlyRootFilesystem": True, "allowPrivilegeEscalation": False,
                             "capabilities": {"drop": ["ALL"]}, "seccompProfile": {"type": "RuntimeDefault"}},
            resources={"limits": {"cpu": "250m", "memory": "64Mi"}}), self.IMAGE, options)
        host = body["HostConfig"]
        self.assertEqual((host["NanoCpus"], host["Memory"], host["MemorySwap"]), (250_000_000, 64 * 2**20,
                                                                                   64 * 2**20))
        self.assertEqual((host["PidsLimit"], host["NetworkMode"], host["CapDrop"]), (64, "none", ["ALL"]))
        self.assertEqual(host["SecurityOpt"], ["no-new-privileges"])
        self.assertEqual(host["Ulimits"], [{"Name": "nofile", "Soft": 10, "Hard": 20}])
        self.assertEqual(host["Tmpfs"], {"/work": "mode=1777,exec,uid=1000"})
        self.assertEqual(body["Entrypoint"], ["sh"])

    def test_unset_seccomp_is_unconfined_like_kubelet(self):
        options = {"labels": {}, "pids_limit": 64, "ulimits": [], "seccomp_root": "/x", "network_mode": "bridge",
                   "mounts": [], "tmpfs": {}}
        body = container_spec.create_body(dict(POD_REF, spec={}), container(command=["sh"]), self.IMAGE, options)
        self.assertEqual(body["HostConfig"]["SecurityOpt"], ["seccomp=unconfined"])

    def test_egress_isolation_without_rules_means_no_network(self):
        pod = {"metadata": {"labels": {"llm-sandbox/network": "none"}}}
        deny = {"spec": {"podSelector": {"matchLabels": {"llm-sandbox/network": "none"}}, "policyTypes": ["Egress"]}}
        allow = {"spec": {"podSelector": {}, "policyTypes": ["Egress"], "egress": [{}]}}
        ingress = {"spec": {"podSelector": {}, "policyTypes": ["Ingress"]}}
        self.assertEqual(container_spec.network_mode(pod, [deny]), "none")
        self.assertEqual(container_spec.network_mode(pod, [deny, allow]), "bridge")
        self.assertEqual(container_spec.network_mode(pod, [ingress]), "bridge")
        self.assertEqual(container_spec.network_mode({"metadata": {"labels": {}}}, [deny]), "bridge")


class SelectorTest(unittest.TestCase):
    def test_label_requirements(self):
        labels = {"app": "x", "tier": "web"}
        self.assertTrue(query_selectors.label_matcher("app=x,tier")(labels))
        self.assertTrue(query_selectors.label_matcher("app==x,!owner")(labels))
        self.assertTrue(query_selectors.label_matcher("tier in (web, db),app notin (y)")(labels))
        self.assertFalse(query_selectors.label_matcher("app!=x")(labels))
        self.assertFalse(query_selectors.label_matcher("owner")(labels))

    def test_unknown_field_selector_is_a_bad_request(self):
        with self.assertRaises(kubestatus.StatusError) as raised:
            query_selectors.field_matcher("spec.unknown=1")
        self.assertEqual(raised.exception.code, 400)


def _field(number, payload):
    return bytes([number << 3 | 2, len(payload)]) + payload


class ProtobufTest(unittest.TestCase):
    def test_self_subject_access_review(self):
        attributes = _field(1, b"default") + _field(2, b"create") + _field(5, b"pods") + _field(6, b"exec")
        raw = _field(1, b"") + _field(2, _field(1, attributes))
        envelope = _field(1, _field(1, b"authorization.k8s.io/v1") + _field(2, b"SelfSubjectAccessReview"))
        body = protobuf_body.decode(protobuf_body.MAGIC + envelope + _field(2, raw), "SelfSubjectAccessReview")
        self.assertEqual(body["spec"]["resourceAttributes"],
                         {"namespace": "default", "verb": "create", "resource": "pods", "subresource": "exec"})

    def test_other_kinds_are_not_decoded(self):
        envelope = _field(1, _field(1, b"v1") + _field(2, b"Pod"))
        self.assertIsNone(protobuf_body.decode(protobuf_body.MAGIC + envelope, "Pod"))


class StoreTest(unittest.TestCase):
    @staticmethod
    def events(watcher):
        out = []
        while not watcher.queue.empty():
            out.append(watcher.queue.get_nowait())
        return out

    def test_watch_replays_events_after_a_version(self):
        store = Store()
        for name in ("a", "b", "c"):
            store.create("pods", {"metadata": {"name": name, "namespace": "default"}})
        store.delete("pods", "default", "a")
        events = self.events(store.watch("pods", "default", lambda o: True, "2"))
        self.assertEqual([(e["type"], e["object"]["metadata"]["name"]) for e in events],
                         [("ADDED", "c"), ("DELETED", "a")])
        self.assertEqual(events[-1]["object"]["metadata"]["resourceVersion"], "4")

    def test_watch_without_version_starts_with_what_exists(self):
        store = Store()
        store.create("pods", {"metadata": {"name": "a", "namespace": "default"}})
        events = self.events(store.watch("pods", None, lambda o: True, ""))
        self.assertEqual([(e["type"], e["object"]["metadata"]["name"]) for e in events], [("ADDED", "a")])

    def test_watch_from_before_the_kept_history_expires(self):
        store = Store(history_limit=2)
        for name in ("a", "b", "c", "d"):
            store.create("pods", {"metadata": {"name": name, "namespace": "default"}})
        watcher = store.watch("pods", "default", lambda o: True, "1")
        self.assertTrue(watcher.expired)
        self.assertEqual(self.events(watcher), [{"type": "ERROR", "object": {
            "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
            "message": "too old resource version: 1 (2)", "reason": "Expired", "code": 410}}])
        self.assertFalse(store.watch("pods", "default", lambda o: True, "2").expired)


class StatusWordingTest(unittest.TestCase):
    def test_rbac_denial_at_cluster_scope(self):
        error = kubestatus.rbac_denied("u", "list", "nodes", "", "", "")
        self.assertEqual(error.body["message"],
                         'nodes is forbidden: User "u" cannot list resource "nodes" in API group "" at the cluster '
                         'scope')

    def test_group_resources_are_qualified(self):
        self.assertEqual(kubestatus.not_found("networkpolicies", "p", "networking.k8s.io").body["message"],
                         'networkpolicies.networking.k8s.io "p" not found')



class MetricsFormatTest(unittest.TestCase):
    """PodMetrics as metrics-server writes it: canonical quantities, a Go duration, the kubelet's working set."""

    # Docker 20.10 on cgroup v1, a Python process holding 50 MB (the parts the computation reads).
    DOCKER_V1 = {"read": "2026-11-30T20:48:59.644563767Z", "preread": "2026-11-30T20:48:58.641462733Z",
                 "cpu_stats": {"cpu_usage": {"total_usage": 647238174, "percpu_usage": [487440651, 159797523]},
                               "system_cpu_usage": 47687600000000, "online_cpus": 2},
                 "precpu_stats": {"cpu_usage": {"total_usage": 496652002, "percpu_usage": [336854479, 159797523]},
                                  "system_cpu_usage": 47685550000000, "online_cpus": 2},
                 "memory_stats": {"usage": 55898112, "limit": 268435456,
                                  "stats": {"total_inactive_file": 4096, "inactive_file": 4096, "cache": 0}}}

    def test_quantities_are_canonical(self):
        self.assertEqual(metrics.binary_quantity(55894016), "54584Ki")
        self.assertEqual(metrics.binary_quantity(64 * 2**20), "64Mi")
        self.assertEqual(metrics.binary_quantity(55894017), "55894017")
        self.assertEqual(metrics.nano_quantity(1067211), "1067211n")
        self.assertEqual(metrics.nano_quantity(1500000), "1500u")
        self.assertEqual(metrics.nano_quantity(12000000), "12m")
        self.assertEqual(metrics.nano_quantity(2000000000), "2")
        self.assertEqual(metrics.nano_quantity(0), "0")
        self.assertEqual(metrics.go_duration(1.003101034), "1.003101034s")
        self.assertEqual(metrics.go_duration(15.0), "15s")

    def test_usage_of_a_docker_sample(self):
        nano_cores, memory, read, window = metrics.usage_from_stats(self.DOCKER_V1)
        self.assertEqual(memory, 55898112 - 4096)
        self.assertEqual(nano_cores, 146913338)  # 150586172 ns of 1.025 s per CPU
        self.assertAlmostEqual(window, 1.003101034, places=6)
        self.assertAlmostEqual(read % 60, 59.644563767, places=5)

    def test_cgroup_v2_working_set_leaves_out_inactive_file(self):
        self.assertEqual(metrics.working_set({"usage": 62914560, "stats": {"inactive_file": 8388608}}), 54525952)
        self.assertEqual(metrics.working_set({"usage": 4096, "stats": {"inactive_file": 8192}}), 0)
        self.assertEqual(metrics.working_set({"usage": 4071424}), 4071424)


if __name__ == "__main__":
    unittest.main(verbosity=2)
