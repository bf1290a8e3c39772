"""The single node: schedules pods, pulls images, runs each container as a Docker container, and reports status
back into the store the way kubelet does (phase, conditions, containerStatuses), so watches see every change.

Every container carries the instance label (and the server's host and pid); cleanup (SIGTERM, and at start the
leftovers of dead servers on this host) finds them by it and never touches anything else on the shared engine.
"""

import asyncio
import logging
import os
import shutil
import socket

import container_spec
from container_spec import ConfigError
from docker_api import DockerError
from store import now_rfc3339

LABEL = "io.llm-sandbox.kube-test-apiserver"
NODE_NAME = "kube-test-node"
NODE_LABELS = {"kubernetes.io/hostname": NODE_NAME, "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64",
               "node-role.kubernetes.io/worker": ""}
PULL_RETRY_SECONDS = 5
SHARED_MEMORY = "/dev/shm"

HOST = socket.gethostname()

log = logging.getLogger("pods")


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class PodRuntime:
    def __init__(self, store, docker, options):
        self.store = store
        self.docker = docker
        self.options = options  # state_dir, pids_limit, ulimits, seccomp_root, instance, runtimes, pod_network
        # Keyed by the pod's uid: a pod deleted at once may have a successor of the same name while its containers
        # are still being removed.
        self.containers = {}  # (pod uid, container name) -> Docker id
        self._tasks = {}  # pod uid -> lifecycle task

    # ---- labels and cleanup -------------------------------------------------------------------------------------
    def _labels(self, pod, container_name):
        meta = pod["metadata"]
        return {LABEL: self.options["instance"], f"{LABEL}.pid": str(os.getpid()), f"{LABEL}.host": HOST,
                f"{LABEL}.namespace": meta["namespace"], f"{LABEL}.pod": meta["name"],
                f"{LABEL}.uid": meta["uid"], f"{LABEL}.container": container_name}

    async def remove_leftovers(self):
        """Removes what servers on this host that died without cleaning up (SIGKILL, a crash) left behind.

        Only servers of this host (its name is in the label) whose process is gone: a server in another container
        or on another machine may share the Docker engine, and its pods are not ours to touch."""
        found = await self.docker.request("GET", "/containers/json",
                                          params={"all": "1", "filters": f'{{"label":["{LABEL}.host={HOST}"]}}'})
        for item in found or []:
            pid = (item.get("Labels") or {}).get(f"{LABEL}.pid", "")
            if pid.isdigit() and not _alive(int(pid)):
                await self._remove_container(item["Id"])
        for entry in os.listdir(SHARED_MEMORY) if os.path.isdir(SHARED_MEMORY) else []:
            parts = entry.split("-")
            if entry.startswith("kube-test-apiserver-") and parts[3].isdigit() and not _alive(int(parts[3])):
                shutil.rmtree(os.path.join(SHARED_MEMORY, entry), ignore_errors=True)

    async def remove_all(self):
        for task in list(self._tasks.values()):
            task.cancel()
        found = await self.docker.request(
            "GET", "/containers/json",
            params={"all": "1", "filters": f'{{"label":["{LABEL}={self.options["instance"]}"]}}'})
        await asyncio.gather(*(self._remove_container(item["Id"]) for item in found or []))
        shutil.rmtree(self._shm_root(), ignore_errors=True)

    def _shm_root(self):
        return os.path.join(SHARED_MEMORY, f"kube-test-apiserver-{os.getpid()}-{self.options['instance']}")

    async def _remove_container(self, container_id):
        try:
            await self.docker.request("DELETE", f"/containers/{container_id}", params={"force": "1", "v": "1"})
        except DockerError as error:
            if error.status not in (404, 409):  # gone, or its removal already under way (a concurrent delete)
                log.warning("could not remove container %s: %s", container_id, error)

    # ---- status helpers -----------------------------------------------------------------------------------------
    def _update(self, namespace, name, change):
        pod = self.store.get("pods", namespace, name)
        if pod is None:
            return None
        change(pod)
        return self.store.update("pods", pod)

    def _set_condition(self, pod, kind, status, reason=None, message=None):
        conditions = pod["status"].setdefault("conditions", [])
        condition = next((c for c in conditions if c["type"] == kind), None)
        if condition is None:
            condition = {"type": kind}
            conditions.append(condition)
        if condition.get("status") != status:
            condition["lastTransitionTime"] = now_rfc3339()
        condition["lastProbeTime"] = None
        condition["status"] = status
        for key, value in (("reason", reason), ("message", message)):
            if value:
                condition[key] = value
            else:
                condition.pop(key, None)

    def _container_status(self, pod, name, key="containerStatuses"):
        statuses = pod["status"].setdefault(key, [])
        status = next((s for s in statuses if s["name"] == name), None)
        if status is None:
            container = next(c for c in pod["spec"].get("containers", []) + pod["spec"].get("initContainers", [])
                             if c["name"] == name)
            status = {"name": name, "state": {}, "lastState": {}, "ready": False, "restartCount": 0,
                      "image": container["image"], "imageID": "", "started": False}
            statuses.append(status)
        return status

    def _waiting(self, namespace, name, container, reason, message=None, key="containerStatuses"):
        def change(pod):
            status = self._container_status(pod, container, key)
            status["state"] = {"waiting": {"reason": reason, **({"message": message} if message else {})}}
        self._update(namespace, name, change)

    # ---- lifecycle ----------------------------------------------------------------------------------------------
    def start(self, pod):
        self._tasks[pod["metadata"]["uid"]] = asyncio.get_running_loop().create_task(self._run(pod))

    async def _run(self, pod):
        namespace, name = pod["metadata"]["namespace"], pod["metadata"]["name"]
        try:
            await self._lifecycle(pod, namespace, name)
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug here must show in the log, not vanish with the task
            log.exception("pod %s/%s", namespace, name)

    async def _lifecycle(self, pod, namespace, name):
        selector = pod["spec"].get("nodeSelector") or {}
        if any(NODE_LABELS.get(k) != v for k, v in selector.items()):
            message = ("0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector. preemption: "
                       "0/1 nodes are available: 1 Preemption is not helpful for scheduling.")
            self._update(namespace, name,
                         lambda p: self._set_condition(p, "PodScheduled", "False", "Unschedulable", message))
            return

        def scheduled(p):
            p["spec"]["nodeName"] = NODE_NAME
            p["status"].update({"hostIP": "127.0.0.1", "hostIPs": [{"ip": "127.0.0.1"}], "startTime": now_rfc3339()})
            self._set_condition(p, "PodScheduled", "True")
            for key in ("initContainers", "containers"):
                status_key = "initContainerStatuses" if key == "initContainers" else "containerStatuses"
                for c in p["spec"].get(key) or []:
                    reason = "PodInitializing" if key == "containers" and p["spec"].get("initContainers") \
                        else "ContainerCreating"
                    self._container_status(p, c["name"], status_key)["state"] = {"waiting": {"reason": reason}}
            self._set_condition(p, "Initialized", "False" if p["spec"].get("initContainers") else "True",
                                "ContainersNotInitialized" if p["spec"].get("initContainers") else None)
            self._set_condition(p, "Ready", "False", "ContainersNotReady")
            self._set_condition(p, "ContainersReady", "False", "ContainersNotReady")
        pod = self._update(namespace, name, scheduled)
        if pod is None:
            return
        deadline = pod["spec"].get("activeDeadlineSeconds")
        if deadline:
            asyncio.get_running_loop().call_later(
                deadline, lambda: asyncio.ensure_future(self._deadline_exceeded(namespace, name)))
        volumes = self._prepare_volumes(pod)
        for init in pod["spec"].get("initContainers") or []:
            exit_code = await self._run_container(pod, init, volumes, "initContainerStatuses", None)
            if exit_code != 0:
                self._finish(namespace, name, "Failed")
                return
        self._update(namespace, name, lambda p: self._set_condition(p, "Initialized", "True"))
        network_owner = None
        waits = []
        containers = pod["spec"]["containers"]
        for index, container in enumerate(containers):
            # The last container's start makes the pod Running, in the same status update, as one kubelet sync.
            started = await self._create_and_start(pod, container, volumes, "containerStatuses", network_owner,
                                                   self._pod_running if index == len(containers) - 1 else None)
            if started is None:
                self._finish(namespace, name, "Failed")
                return
            network_owner = network_owner or started
            waits.append(self._wait_container(pod, container, started, "containerStatuses"))
        codes = await asyncio.gather(*waits)
        self._finish(namespace, name, "Succeeded" if all(c == 0 for c in codes) else "Failed")

    def _pod_running(self, p):
        if p["status"].get("phase") in ("Succeeded", "Failed"):
            return
        p["status"]["phase"] = "Running"
        self._set_condition(p, "Ready", "True")
        self._set_condition(p, "ContainersReady", "True")

    def _finish(self, namespace, name, phase):
        def change(p):
            if p["status"].get("phase") in ("Succeeded", "Failed"):
                return
            p["status"]["phase"] = phase
            self._set_condition(p, "Ready", "False", "PodCompleted")
            self._set_condition(p, "ContainersReady", "False", "PodCompleted")
        self._update(namespace, name, change)

    async def _deadline_exceeded(self, namespace, name):
        pod = self.store.get("pods", namespace, name)
        if pod is None or pod["status"].get("phase") in ("Succeeded", "Failed"):
            return

        def change(p):
            p["status"].update({"phase": "Failed", "reason": "DeadlineExceeded",
                                "message": "Pod was active on the node longer than the specified deadline"})
            self._set_condition(p, "Ready", "False", "PodFailed")
            self._set_condition(p, "ContainersReady", "False", "PodFailed")
        self._update(namespace, name, change)
        for (uid, _), container_id in list(self.containers.items()):
            if uid == pod["metadata"]["uid"]:
                try:
                    await self.docker.request("POST", f"/containers/{container_id}/kill")
                except DockerError:
                    pass

    def _prepare_volumes(self, pod):
        """emptyDir volumes as kubelet provides them: empty, writable by any UID, shared by the pod's containers.

        medium Memory used by one container (our sandboxes' case) is a tmpfs mount of exactly sizeLimit. Docker
        cannot share a tmpfs mount between containers (and a tmpfs volume is unmounted, contents gone, when an
        init container stops), so a memory volume several containers use is a directory on the host's /dev/shm
        tmpfs instead: shared, but its sizeLimit is not enforced. The default medium is a host directory."""
        users = {}
        for container in (pod["spec"].get("initContainers") or []) + pod["spec"]["containers"]:
            for mount in container.get("volumeMounts") or []:
                users.setdefault(mount["name"], set()).add(container["name"])
        volumes = {}
        uid = pod["metadata"]["uid"]
        for volume in pod["spec"].get("volumes") or []:
            empty_dir = volume.get("emptyDir")
            if empty_dir is None:
                continue  # other volume types are accepted but not provided by this node
            if empty_dir.get("medium") == "Memory" and len(users.get(volume["name"], ())) <= 1:
                # Mount options as text: Docker's structured TmpfsOptions drop the mode, and kubelet's emptyDir
                # tmpfs allows exec (compiled programs run from it), unlike Docker's default.
                size = empty_dir.get("sizeLimit")
                options = "mode=1777,exec" + (f",size={int(container_spec.parse_quantity(size))}" if size else "")
                volumes[volume["name"]] = {"Type": "tmpfs", "Options": options}
                continue
            base = self._shm_root() if empty_dir.get("medium") == "Memory" else \
                os.path.join(self.options["state_dir"], "pods")
            path = os.path.join(base, uid, "volumes", volume["name"])
            os.makedirs(path, exist_ok=True)
            os.chmod(path, 0o777)
            volumes[volume["name"]] = {"Type": "bind", "Source": path}
        return volumes

    @staticmethod
    def _mounts(container, volumes):
        """(Docker Mounts, HostConfig.Tmpfs) for the container's volumeMounts."""
        mounts, tmpfs = [], {}
        for mount in container.get("volumeMounts") or []:
            volume = volumes.get(mount["name"])
            if volume is None:
                continue
            if volume["Type"] == "tmpfs":
                tmpfs[mount["mountPath"]] = volume["Options"] + (",ro" if mount.get("readOnly") else "")
            else:
                mounts.append({"Target": mount["mountPath"], "ReadOnly": bool(mount.get("readOnly")), **volume})
        return mounts, tmpfs

    async def _ensure_image(self, pod, container, status_key):
        """Pulls per imagePullPolicy; on failure reports ErrImagePull, then ImagePullBackOff, and retries."""
        namespace, name = pod["metadata"]["namespace"], pod["metadata"]["name"]
        image = container["image"]
        policy = container.get("imagePullPolicy", "IfNotPresent")
        while True:
            present = None
            try:
                present = await self.docker.request("GET", f"/images/{image}/json")
            except DockerError as error:
                if error.status != 404:
                    raise
            if present is not None and policy != "Always":
                return present
            if policy == "Never":
                self._waiting(namespace, name, container["name"], "ErrImageNeverPull",
                              f'Container image "{image}" is not present with pull policy of Never', status_key)
                return None
            error_text = await self._pull(image)
            if error_text is None:
                return await self.docker.request("GET", f"/images/{image}/json")
            # kubelet puts the runtime's own error into the status (the "Failed to pull image" wording is only
            # its event's); a CRI runtime over Docker (cri-dockerd) reports it as a gRPC error. The back-off
            # message carries the last pull error since Kubernetes 1.32.
            pull_error = f"rpc error: code = Unknown desc = Error response from daemon: {error_text}"
            self._waiting(namespace, name, container["name"], "ErrImagePull", pull_error, status_key)
            await asyncio.sleep(1)
            self._waiting(namespace, name, container["name"], "ImagePullBackOff",
                          f'Back-off pulling image "{image}": ErrImagePull: {pull_error}', status_key)
            await asyncio.sleep(PULL_RETRY_SECONDS)
            if self.store.get("pods", namespace, name) is None:
                return None

    async def _pull(self, image):
        reference, tag = image, "latest"
        last = reference.rsplit("/", 1)[-1]
        if "@" in last:
            reference, tag = image.split("@", 1)[0], None
            params = {"fromImage": image}
        else:
            if ":" in last:
                reference, tag = image.rsplit(":", 1)
            params = {"fromImage": reference, "tag": tag}
        try:
            async for event in self.docker.stream_lines("POST", "/images/create", params=params):
                if "error" in event:
                    return event["error"]
        except DockerError as error:
            return str(error)
        return None

    async def _create_and_start(self, pod, container, volumes, status_key, network_owner, also=None):
        """Returns the Docker id of the started container, or None after reporting why it could not start."""
        namespace, name = pod["metadata"]["namespace"], pod["metadata"]["name"]
        image = await self._ensure_image(pod, container, status_key)
        if image is None:
            return None
        policies = self.store.list("networkpolicies", namespace)
        mounts, tmpfs = self._mounts(container, volumes)
        network = f"container:{network_owner}" if network_owner else container_spec.network_mode(pod, policies)
        if network == "bridge":
            network = self.options.get("pod_network", "bridge")
        options = {"labels": self._labels(pod, container["name"]), "pids_limit": self.options["pids_limit"],
                   "ulimits": self.options["ulimits"], "seccomp_root": self.options["seccomp_root"],
                   "network_mode": network, "mounts": mounts, "tmpfs": tmpfs,
                   "runtime": self.options["runtimes"].get(pod["spec"].get("runtimeClassName") or "")}
        try:
            body = container_spec.create_body(pod, container, image.get("Config") or {}, options)
            created = await self.docker.request("POST", "/containers/create", body=body,
                                                params={"name": f"kts-{namespace}-{name}-{container['name']}"
                                                        f"-{pod['metadata']['uid'][:8]}"})
        except ConfigError as error:
            self._waiting(namespace, name, container["name"], error.reason, str(error), status_key)
            return None
        except DockerError as error:
            self._waiting(namespace, name, container["name"], "CreateContainerError", str(error), status_key)
            return None
        container_id = created["Id"]
        self.containers[(pod["metadata"]["uid"], container["name"])] = container_id
        if self.store.get("pods", namespace, name) is None:
            await self._remove_container(container_id)
            return None
        try:
            await self.docker.request("POST", f"/containers/{container_id}/start")
        except DockerError as error:
            # A runtime failure to start (no such executable, ...): kubelet reports StartError, exit code 128.
            message = str(error)

            def failed(p):
                status = self._container_status(p, container["name"], status_key)
                status.update({"containerID": f"docker://{container_id}", "started": False})
                status["state"] = {"terminated": {"exitCode": 128, "reason": "StartError", "message": message,
                                                  "startedAt": "1970-01-01T00:00:00Z", "finishedAt": now_rfc3339(),
                                                  "containerID": f"docker://{container_id}"}}
            self._update(namespace, name, failed)
            return None

        # The container that owns the pod's network namespace gives the pod its IP.
        pod_ip = await self._pod_ip(container_id) if network_owner is None and status_key == "containerStatuses" \
            else None

        def running(p):
            status = self._container_status(p, container["name"], status_key)
            status.update({"containerID": f"docker://{container_id}", "imageID": f"docker://{image['Id']}",
                           "started": True, "ready": status_key == "containerStatuses"})
            status["state"] = {"running": {"startedAt": now_rfc3339()}}
            if pod_ip:
                p["status"].update({"podIP": pod_ip, "podIPs": [{"ip": pod_ip}]})
            if also:
                also(p)
        self._update(namespace, name, running)
        return container_id

    async def _wait_container(self, pod, container, container_id, status_key):
        """Waits for the container's exit and reports it; with restartPolicy Always (or OnFailure after a failure)
        an app container is started again after kubelet's back-off, 10 s doubling up to 5 minutes."""
        namespace, name = pod["metadata"]["namespace"], pod["metadata"]["name"]
        policy = pod["spec"].get("restartPolicy", "Always")
        backoff = 10
        while True:
            try:
                await self.docker.request("POST", f"/containers/{container_id}/wait")
                info = await self.docker.request("GET", f"/containers/{container_id}/json")
            except DockerError:
                return 137  # removed under us: the pod is being deleted
            state = info["State"]
            code = state.get("ExitCode", 0)
            reason = "OOMKilled" if state.get("OOMKilled") else ("Completed" if code == 0 else "Error")
            terminated = {"exitCode": code, "reason": reason, "startedAt": state.get("StartedAt", "")[:19] + "Z",
                          "finishedAt": state.get("FinishedAt", "")[:19] + "Z",
                          "containerID": f"docker://{container_id}"}
            restart = status_key == "containerStatuses" and (policy == "Always" or (policy == "OnFailure" and code))
            if not restart:
                def stopped(p):
                    status = self._container_status(p, container["name"], status_key)
                    status.update({"ready": False, "started": False})
                    status["state"] = {"terminated": terminated}
                self._update(namespace, name, stopped)
                return code

            def backing_off(p):
                status = self._container_status(p, container["name"], status_key)
                status.update({"ready": False, "started": False, "lastState": {"terminated": terminated}})
                status["state"] = {"waiting": {
                    "reason": "CrashLoopBackOff",
                    "message": f"back-off {backoff}s restarting failed container={container['name']} "
                               f"pod={name}_{namespace}({pod['metadata']['uid']})"}}
                self._set_condition(p, "Ready", "False", "ContainersNotReady")
                self._set_condition(p, "ContainersReady", "False", "ContainersNotReady")
            self._update(namespace, name, backing_off)
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, 300)
            try:
                await self.docker.request("POST", f"/containers/{container_id}/start")
            except DockerError:
                return 137

            def restarted(p):
                status = self._container_status(p, container["name"], status_key)
                status.update({"ready": True, "started": True, "restartCount": status.get("restartCount", 0) + 1})
                status["state"] = {"running": {"startedAt": now_rfc3339()}}
                if all("running" in (s.get("state") or {}) for s in p["status"].get("containerStatuses") or []):
                    self._set_condition(p, "Ready", "True")
                    self._set_condition(p, "ContainersReady", "True")
            self._update(namespace, name, restarted)

    async def _run_container(self, pod, container, volumes, status_key, network_owner):
        container_id = await self._create_and_start(pod, container, volumes, status_key, network_owner)
        if container_id is None:
            return None
        return await self._wait_container(pod, container, container_id, status_key)

    async def _pod_ip(self, container_id):
        try:
            info = await self.docker.request("GET", f"/containers/{container_id}/json")
        except DockerError:
            return None
        settings = info.get("NetworkSettings") or {}
        # The default bridge's address, else the first of a named network's (--pod-network).
        return settings.get("IPAddress") or next(
            (n.get("IPAddress") for n in (settings.get("Networks") or {}).values() if n.get("IPAddress")), None)

    # ---- deletion -----------------------------------------------------------------------------------------------
    def delete(self, pod, grace):
        """Stops the pod's containers (SIGTERM, SIGKILL after `grace` seconds), removes them and the pod's volumes,
        then the object (already gone when deleted with grace 0). Its lifecycle stops at once: nothing may update
        a successor of the same name."""
        task = self._tasks.pop(pod["metadata"]["uid"], None)
        if task:
            task.cancel()
        asyncio.get_running_loop().create_task(self._remove_pod(pod, grace))

    async def _remove_pod(self, pod, grace):
        namespace, name, uid = pod["metadata"]["namespace"], pod["metadata"]["name"], pod["metadata"]["uid"]
        # Docker's own list, not ours: a container created while the lifecycle was cancelled is found too.
        found = await self.docker.request("GET", "/containers/json",
                                          params={"all": "1", "filters": f'{{"label":["{LABEL}.uid={uid}"]}}'})
        ids = [item["Id"] for item in found or []]
        if grace > 0:
            await asyncio.gather(*(self._stop(cid, grace) for cid in ids))
        await asyncio.gather(*(self._remove_container(cid) for cid in ids))
        for key in [k for k in self.containers if k[0] == uid]:
            del self.containers[key]
        shutil.rmtree(os.path.join(self._shm_root(), uid), ignore_errors=True)
        shutil.rmtree(os.path.join(self.options["state_dir"], "pods", uid), ignore_errors=True)
        current = self.store.get("pods", namespace, name)
        if current is not None and current["metadata"]["uid"] == uid:
            self.store.delete("pods", namespace, name)

    async def _stop(self, container_id, grace):
        try:
            await self.docker.request("POST", f"/containers/{container_id}/stop", params={"t": str(grace)},
                                      timeout=grace + 30)
        except (DockerError, asyncio.TimeoutError):
            pass

    def container_id(self, pod, container):
        return self.containers.get((pod["metadata"]["uid"], container))
