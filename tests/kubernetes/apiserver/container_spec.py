"""Translation of one pod container into a Docker create body, the way kubelet + a CRI runtime would run it.

Kept free of I/O so the mapping (argv rules, security context precedence, limits) reads in one place.
"""

import json
import os

from schema import parse_quantity


class ConfigError(Exception):
    """The pod cannot be started as specified: kubelet's CreateContainerConfigError / CreateContainerError."""

    def __init__(self, reason, message):
        super().__init__(message)
        self.reason = reason


def argv(container, image_config):
    """Kubernetes' rule: command replaces the image's ENTRYPOINT, args its CMD; command alone drops the CMD."""
    command, args = container.get("command"), container.get("args")
    entrypoint, cmd = image_config.get("Entrypoint") or [], image_config.get("Cmd") or []
    if command:
        return list(command) + list(args or [])
    return list(entrypoint) + list(args if args is not None else cmd)


def _security_value(container, pod, key):
    # A container's securityContext field wins over the pod's.
    own = (container.get("securityContext") or {}).get(key)
    return own if own is not None else (pod["spec"].get("securityContext") or {}).get(key)


def _pod_ref(pod, container):
    meta = pod["metadata"]
    return f'(pod: "{meta["name"]}_{meta["namespace"]}({meta["uid"]})", container: {container["name"]})'


def user_setting(container, pod, image_config):
    uid, gid = _security_value(container, pod, "runAsUser"), _security_value(container, pod, "runAsGroup")
    image_user = image_config.get("User") or ""
    if _security_value(container, pod, "runAsNonRoot"):
        # kubelet's verifyRunAsNonRoot, with its messages.
        if uid is not None:
            if uid == 0:
                raise ConfigError("CreateContainerConfigError",
                                  f"container's runAsUser breaks non-root policy {_pod_ref(pod, container)}")
        else:
            name = image_user.split(":")[0]
            if not name or name == "0" or name == "root":
                raise ConfigError("CreateContainerConfigError",
                                  f"container has runAsNonRoot and image will run as root {_pod_ref(pod, container)}")
            if not name.isdigit():
                raise ConfigError("CreateContainerConfigError",
                                  f"container has runAsNonRoot and image has non-numeric user ({name}), cannot verify "
                                  f"user is non-root {_pod_ref(pod, container)}")
    if uid is None and gid is None:
        return image_user
    user = str(uid) if uid is not None else (image_user.split(":")[0] or "0")
    return f"{user}:{gid}" if gid is not None else user


def _seccomp_option(container, pod, seccomp_root):
    profile = _security_value(container, pod, "seccompProfile")
    kind = (profile or {}).get("type", "Unconfined")
    if kind == "RuntimeDefault":
        return None  # Docker's default profile is the runtime's default.
    if kind == "Localhost":
        path = os.path.join(seccomp_root, profile["localhostProfile"])
        try:
            with open(path, encoding="utf-8") as f:
                return "seccomp=" + json.dumps(json.load(f))
        except (OSError, ValueError) as error:
            raise ConfigError("CreateContainerError",
                              f'failed to create containerd container: cannot load seccomp profile "{path}": {error}')
    # Kubernetes' default without a profile (kubelet's seccompDefault off) is Unconfined, unlike Docker's.
    return "seccomp=unconfined"


def network_mode(pod, policies):
    """`none` when NetworkPolicies isolate the pod's egress and none of them allows any; the default bridge else."""
    labels = pod["metadata"].get("labels") or {}
    isolated, allowed = False, False
    for policy in policies:
        spec = policy.get("spec") or {}
        if not selector_matches(spec.get("podSelector") or {}, labels):
            continue
        types = spec.get("policyTypes") or (["Ingress", "Egress"] if spec.get("egress") else ["Ingress"])
        if "Egress" in types:
            isolated = True
            if spec.get("egress"):
                allowed = True
    return "none" if isolated and not allowed else "bridge"


def selector_matches(selector, labels):
    for key, value in (selector.get("matchLabels") or {}).items():
        if labels.get(key) != value:
            return False
    for expression in selector.get("matchExpressions") or []:
        key, operator, values = expression.get("key"), expression.get("operator"), expression.get("values") or []
        if operator == "In" and labels.get(key) not in values:
            return False
        if operator == "NotIn" and key in labels and labels[key] in values:
            return False
        if operator == "Exists" and key not in labels:
            return False
        if operator == "DoesNotExist" and key in labels:
            return False
    return True


def _owned_working_dir(tmpfs, working_dir, user):
    """Docker resets a tmpfs that holds the working directory to root 0755 (its mode option is lost), where
    kubelet's emptyDir stays 0777; owning it by the container's user keeps it writable, as the pod expects."""
    uid, _, gid = user.partition(":")
    result = dict(tmpfs)
    for path, options in tmpfs.items():
        inside = working_dir == path or working_dir.startswith(path.rstrip("/") + "/")
        if inside and uid.isdigit():
            result[path] = options + f",uid={uid}" + (f",gid={gid}" if gid.isdigit() else "")
    return result


def create_body(pod, container, image_config, options):
    """options: the node's settings (labels, pids limit, ulimits, seccomp root, network mode, mounts, runtime)."""
    command = argv(container, image_config)
    if not command:
        raise ConfigError("CreateContainerError", "failed to generate container spec: no command specified")
    security = container.get("securityContext") or {}
    capabilities = security.get("capabilities") or {}
    security_opt = []
    if security.get("allowPrivilegeEscalation") is False:
        security_opt.append("no-new-privileges")
    seccomp = _seccomp_option(container, pod, options["seccomp_root"])
    if seccomp:
        security_opt.append(seccomp)
    limits = (container.get("resources") or {}).get("limits") or {}
    requests = (container.get("resources") or {}).get("requests") or {}
    host_config = {
        "NetworkMode": options["network_mode"],
        "CapDrop": list(capabilities.get("drop") or []),
        "CapAdd": list(capabilities.get("add") or []),
        "SecurityOpt": security_opt,
        "ReadonlyRootfs": bool(security.get("readOnlyRootFilesystem")),
        "Privileged": bool(security.get("privileged")),
        "PidsLimit": options["pids_limit"],
        "Ulimits": [{"Name": n, "Soft": s, "Hard": h} for n, s, h in options["ulimits"]],
        "Mounts": options["mounts"],
        "GroupAdd": [str(g) for g in (pod["spec"].get("securityContext") or {}).get("supplementalGroups") or []],
    }
    fs_group = (pod["spec"].get("securityContext") or {}).get("fsGroup")
    if fs_group is not None:
        host_config["GroupAdd"].append(str(fs_group))
    if "memory" in limits:
        host_config["Memory"] = int(parse_quantity(limits["memory"]))
        host_config["MemorySwap"] = host_config["Memory"]  # kubelet runs pods without swap
    if "cpu" in limits:
        host_config["NanoCpus"] = int(parse_quantity(limits["cpu"]) * 1e9)
    if "cpu" in requests or "cpu" in limits:
        # kubelet's MilliCPUToShares: requests become relative CPU weight.
        host_config["CpuShares"] = max(2, int(parse_quantity(requests.get("cpu", limits.get("cpu"))) * 1024))
    if options.get("runtime"):
        host_config["Runtime"] = options["runtime"]
    env = [f'{e["name"]}={e.get("value", "")}' for e in container.get("env") or [] if "valueFrom" not in e]
    user = user_setting(container, pod, image_config)
    working_dir = container.get("workingDir") or image_config.get("WorkingDir") or ""
    host_config["Tmpfs"] = _owned_working_dir(options["tmpfs"], working_dir, user)
    # kubelet writes hostAliases into the pod's /etc/hosts (a container sharing another's network has that one's).
    aliases = [f"{name}:{alias['ip']}" for alias in pod["spec"].get("hostAliases") or []
               for name in alias.get("hostnames") or []]
    if aliases and not options["network_mode"].startswith("container:"):
        host_config["ExtraHosts"] = aliases
    return {
        "Image": container["image"],
        "Entrypoint": command,
        "Cmd": None,
        "WorkingDir": working_dir,
        "Env": env,
        "User": user,
        # A container joining another's network namespace shares its hostname (Docker refuses to set one).
        "Hostname": "" if options["network_mode"].startswith("container:") else pod["metadata"]["name"][:63],
        "OpenStdin": bool(container.get("stdin")),
        "StdinOnce": bool(container.get("stdinOnce")),
        "AttachStdin": bool(container.get("stdin")),
        "AttachStdout": True,
        "AttachStderr": True,
        "Tty": bool(container.get("tty")),
        "Labels": options["labels"],
        "HostConfig": host_config,
    }
