"""The defaults the real API server fills into a pod it accepts (SetDefaults_Pod and friends), for what our
backend and kubectl send, and the pod's QoS class."""


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
