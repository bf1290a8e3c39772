"""The defaults the real API server fills into a pod it accepts (SetDefaults_Pod and friends), for what our
backend and kubectl send, the pod's QoS class, and the rules of a pod update."""

import copy


def default_pod(pod):
    """Fills in the defaults, in place; status starts Pending."""
    pod["apiVersion"], pod["kind"] = "v1", "Pod"
    spec = pod.setdefault("spec", {})
    spec.setdefault("restartPolicy", "Always")
    spec.setdefault("terminationGracePeriodSeconds", 30)
    spec.setdefault("dnsPolicy", "ClusterFirst")
    spec.setdefault("schedulerName", "default-scheduler")
    spec.setdefault("securityContext", {})
    spec.setdefault("enableServiceLinks", True)
    spec.setdefault("preemptionPolicy", "PreemptLowerPriority")
    spec.setdefault("priority", 0)
    for container in (spec.get("containers") or []) + (spec.get("initContainers") or []):
        image = container.get("image") or ""
        last = image.rsplit("/", 1)[-1]
        tagged = ":" in last or "@" in last
        container.setdefault("imagePullPolicy",
                             "Always" if not tagged or last.endswith(":latest") else "IfNotPresent")
        container.setdefault("terminationMessagePath", "/dev/termination-log")
        container.setdefault("terminationMessagePolicy", "File")
        resources = container.setdefault("resources", {})
        if resources.get("limits"):
            requests = resources.setdefault("requests", {})
            for key, value in resources["limits"].items():
                requests.setdefault(key, value)
    for volume in spec.get("volumes") or []:
        if "emptyDir" in volume and volume["emptyDir"] is None:
            volume["emptyDir"] = {}
    pod["status"] = {"phase": "Pending", "qosClass": qos_class(spec)}


def qos_class(spec):
    containers = spec.get("containers") or []
    resources = [c.get("resources") or {} for c in containers]
    if not any(r.get("limits") or r.get("requests") for r in resources):
        return "BestEffort"
    guaranteed = all(
        all(k in (r.get("limits") or {}) and (r.get("requests") or {}).get(k, r["limits"][k]) == r["limits"][k]
            for k in ("cpu", "memory")) for r in resources)
    return "Guaranteed" if guaranteed else "Burstable"


# What a pod update may change (ValidatePodUpdate); the message is the start of the real one, which goes on
# with a diff of the specs.
SPEC_UPDATE_FORBIDDEN = ("pod updates may not change fields other than `spec.containers[*].image`,"
                         "`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only "
                         "additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be "
                         "set to 1 if it was previously negative)")


def merge_patch(target, patch):
    """RFC 7386: objects merge, null removes, anything else replaces."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    result = copy.deepcopy(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key), value)
    return result


def spec_update_allowed(old, new):
    def without_mutable(spec):
        spec = copy.deepcopy(spec)
        spec.pop("activeDeadlineSeconds", None)
        for key in ("containers", "initContainers"):
            for container in spec.get(key) or []:
                container.pop("image", None)
        return spec
    return without_mutable(old) == without_mutable(new)
