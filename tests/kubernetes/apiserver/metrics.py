"""metrics.k8s.io PodMetrics from Docker's stats, as metrics-server reports them from the kubelet."""

from docker_api import DockerError
from store import now_rfc3339


async def pod_metrics(docker, runtime, pod):
    """PodMetrics from one `docker stats` sample: CPU as the rate between Docker's two readings."""
    meta = pod["metadata"]
    containers = []
    for container in pod["spec"]["containers"]:
        container_id = runtime.container_id(pod, container["name"])
        if container_id is None:
            return None
        try:
            stats = await docker.request("GET", f"/containers/{container_id}/stats", params={"stream": "false"})
        except DockerError:
            return None
        cpu, pre = stats.get("cpu_stats") or {}, stats.get("precpu_stats") or {}
        used = (cpu.get("cpu_usage", {}).get("total_usage", 0) - pre.get("cpu_usage", {}).get("total_usage", 0))
        # system_cpu_usage counts every CPU of the host: per CPU, it is the sampling window.
        window = (cpu.get("system_cpu_usage", 0) - pre.get("system_cpu_usage", 0)) / max(1, cpu.get("online_cpus", 1))
        nano_cores = int(used / window * 1e9) if window > 0 else 0
        memory = stats.get("memory_stats") or {}
        working_set = memory.get("usage", 0) - (memory.get("stats") or {}).get("total_inactive_file", 0)
        containers.append({"name": container["name"],
                           "usage": {"cpu": f"{max(0, nano_cores)}n", "memory": f"{max(0, working_set) // 1024}Ki"}})
    return {"kind": "PodMetrics", "apiVersion": "metrics.k8s.io/v1beta1",
            "metadata": {"name": meta["name"], "namespace": meta["namespace"],
                         "creationTimestamp": now_rfc3339(), "labels": meta.get("labels") or {}},
            "timestamp": now_rfc3339(), "window": "1s", "containers": containers}
