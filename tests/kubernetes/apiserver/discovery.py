"""Legacy (unaggregated) discovery documents: what kubectl and client libraries read to map kinds to URLs.

Clients ask for aggregated discovery first (Accept: ...as=APIGroupDiscoveryList) and fall back to these plain
application/json documents when the answer is not aggregated, exactly as against an older server.
"""

VERSION = {
    "major": "1", "minor": "32", "gitVersion": "v1.32.0-llm-sandbox-test", "gitCommit": "0000000000000000000000000000000000000000",
    "gitTreeState": "clean", "buildDate": "2026-01-01T00:00:00Z", "goVersion": "go1.23.0", "compiler": "gc",
    "platform": "linux/amd64",
}

_RW = ["create", "delete", "get", "list", "watch"]


def _resource(name, kind, namespaced, verbs, singular="", short=None):
    entry = {"name": name, "singularName": singular, "namespaced": namespaced, "kind": kind, "verbs": verbs}
    if short:
        entry["shortNames"] = short
    return entry


CORE_V1 = {
    "kind": "APIResourceList", "groupVersion": "v1",
    "resources": [
        _resource("namespaces", "Namespace", False, ["create", "get", "list"], "namespace", ["ns"]),
        _resource("nodes", "Node", False, ["get", "list"], "node", ["no"]),
        _resource("pods", "Pod", True, _RW + ["deletecollection", "patch"], "pod", ["po"]) | {"categories": ["all"]},
        _resource("pods/attach", "PodAttachOptions", True, ["create", "get"]),
        _resource("pods/exec", "PodExecOptions", True, ["create", "get"]),
        _resource("pods/log", "Pod", True, ["get"]),
        _resource("pods/status", "Pod", True, ["get"]),
        _resource("resourcequotas", "ResourceQuota", True, ["create", "get", "list"], "resourcequota", ["quota"]),
    ],
}

GROUPS = {
    "networking.k8s.io": ("v1", [_resource("networkpolicies", "NetworkPolicy", True, _RW, "networkpolicy",
                                           ["netpol"])]),
    "authorization.k8s.io": ("v1", [_resource("selfsubjectaccessreviews", "SelfSubjectAccessReview", False,
                                              ["create"], "selfsubjectaccessreview")]),
    "authentication.k8s.io": ("v1", [_resource("selfsubjectreviews", "SelfSubjectReview", False, ["create"],
                                               "selfsubjectreview")]),
    "node.k8s.io": ("v1", [_resource("runtimeclasses", "RuntimeClass", False, ["get", "list"], "runtimeclass")]),
    "metrics.k8s.io": ("v1beta1", [_resource("pods", "PodMetrics", True, ["get", "list"], "")]),
}


def api_versions(server_address):
    return {"kind": "APIVersions", "versions": ["v1"],
            "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": server_address}]}


def api_group_list(exclude=()):
    groups = []
    for name, (version, _) in GROUPS.items():
        if name in exclude:
            continue
        gv = {"groupVersion": f"{name}/{version}", "version": version}
        groups.append({"name": name, "versions": [gv], "preferredVersion": gv})
    return {"kind": "APIGroupList", "apiVersion": "v1", "groups": groups}


def api_group(name):
    version, _ = GROUPS[name]
    gv = {"groupVersion": f"{name}/{version}", "version": version}
    return {"kind": "APIGroup", "apiVersion": "v1", "name": name, "versions": [gv], "preferredVersion": gv}


def resource_list(name):
    version, resources = GROUPS[name]
    return {"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": f"{name}/{version}",
            "resources": resources}
