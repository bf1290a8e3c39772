"""metrics.k8s.io PodMetrics from Docker's stats, in metrics-server's wire format: CPU in nanocores and memory (the
working set, as the kubelet reports it) as canonical quantities, the sample's time and window."""

import datetime

from docker_api import DockerError
from store import now_rfc3339

_BINARY_SUFFIXES = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"]
_DECIMAL_SUFFIXES = {-9: "n", -6: "u", -3: "m", 0: "", 3: "k", 6: "M", 9: "G", 12: "T", 15: "P", 18: "E"}


def binary_quantity(value):
    """resource.NewQuantity(value, BinarySI).String(): whole multiples of 1024 as Ki, Mi, ...; else plain bytes."""
    value = int(value)
    if -1024 < value < 1024:
        return str(value)
    power = 0
    while value % 1024 == 0 and power < len(_BINARY_SUFFIXES) - 1:
        value //= 1024
        power += 1
    return f"{value}{_BINARY_SUFFIXES[power]}"


def nano_quantity(nanos):
    """resource.NewScaledQuantity(nanos, -9).String(): "250000n", "12m", "1", "0" (the shortest exact form)."""
    nanos = int(nanos)
    if nanos == 0:
        return "0"
    exponent = -9
    while nanos % 1000 == 0 and exponent < 18:
        nanos //= 1000
        exponent += 3
    return f"{nanos}{_DECIMAL_SUFFIXES[exponent]}"


def go_duration(seconds):
    """metav1.Duration as JSON (Go's Duration.String() for under a minute): "1.003101034s", "15s"."""
    text = f"{seconds:.9f}".rstrip("0").rstrip(".")
    return f"{text}s"


def working_set(memory):
    """cAdvisor's working set, which the kubelet reports: usage less inactive file pages (cgroup v1
    total_inactive_file, v2 inactive_file), 0 when those are more than the usage."""
    usage = memory.get("usage", 0)
    breakdown = memory.get("stats") or {}
    inactive = breakdown.get("total_inactive_file", breakdown.get("inactive_file", 0))
    return 0 if usage < inactive else usage - inactive


def _seconds(timestamp):
    """Docker's RFC 3339 time with nanoseconds ("2026-11-30T20:48:59.644563767Z") in seconds since the epoch."""
    try:
        whole, _, fraction = timestamp.rstrip("Z").partition(".")
        moment = datetime.datetime.strptime(whole, "%Y-%m-%dT%H:%M:%S").replace(tzinfo=datetime.timezone.utc)
        return moment.timestamp() + (float("0." + fraction) if fraction else 0.0)
    except (AttributeError, ValueError):
        return None


def usage_from_stats(stats):
    """(cpu, memory, read time, window seconds) of one `GET /containers/ID/stats?stream=false` answer."""
    cpu, pre = stats.get("cpu_stats") or {}, stats.get("precpu_stats") or {}
    used = cpu.get("cpu_usage", {}).get("total_usage", 0) - pre.get("cpu_usage", {}).get("total_usage", 0)
    # system_cpu_usage counts every CPU of the host: per CPU, it is the sampling window.
    online = cpu.get("online_cpus") or len(cpu.get("cpu_usage", {}).get("percpu_usage") or []) or 1
    window = (cpu.get("system_cpu_usage", 0) - pre.get("system_cpu_usage", 0)) / online
    nano_cores = int(used / window * 1e9) if window > 0 and pre.get("system_cpu_usage") else 0
    read, preread = _seconds(stats.get("read", "")), _seconds(stats.get("preread", ""))
    window_seconds = read - preread if read and preread and read > preread else window / 1e9 if window > 0 else 1.0
    return max(0, nano_cores), working_set(stats.get("memory_stats") or {}), read, window_seconds


async def pod_metrics(docker, runtime, pod):
    """PodMetrics from one `docker stats` sample of each container: CPU as the rate between Docker's two readings."""
    meta = pod["metadata"]
    containers = []
    latest, longest = None, 0.0
    for container in pod["spec"]["containers"]:
        container_id = runtime.container_id(pod, container["name"])
        if container_id is None:
            return None
        try:
            stats = await docker.request("GET", f"/containers/{container_id}/stats", params={"stream": "false"})
        except DockerError:
            return None
        nano_cores, memory, read, window = usage_from_stats(stats)
        latest = max(latest or 0, read or 0) or None
        longest = max(longest, window)
        containers.append({"name": container["name"],
                           "usage": {"cpu": nano_quantity(nano_cores), "memory": binary_quantity(memory)}})
    timestamp = (datetime.datetime.fromtimestamp(int(latest), datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
                 if latest else now_rfc3339())
    return {"kind": "PodMetrics", "apiVersion": "metrics.k8s.io/v1beta1",
            "metadata": {"name": meta["name"], "namespace": meta["namespace"],
                         "creationTimestamp": now_rfc3339(), "labels": meta.get("labels") or {}},
            "timestamp": timestamp, "window": go_duration(round(longest, 9)), "containers": containers}
