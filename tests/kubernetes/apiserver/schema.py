"""Strict decoding and validation of Pod and NetworkPolicy bodies, with the real server's error wording.

Only the fields of the v1 schema are known; an unknown one is what a typo in a client looks like, and the
real server rejects it under fieldValidation=Strict with `strict decoding error: unknown field "spec.foo"`.
ANY marks a known field whose content this server does not look into (probes, affinity, ...).
"""

import re

ANY = object()
MAP = "map"  # string -> string (labels, annotations, nodeSelector, resource lists)


def _list(item):
    return ("list", item)


_SECCOMP = {"type": None, "localhostProfile": None}
_METADATA = {k: None for k in ("name", "generateName", "namespace", "uid", "resourceVersion", "creationTimestamp",
                               "deletionTimestamp", "deletionGracePeriodSeconds", "generation", "selfLink")}
_METADATA.update({"labels": MAP, "annotations": MAP, "ownerReferences": ANY, "finalizers": ANY,
                  "managedFields": ANY})

_CONTAINER_SECURITY = {
    "capabilities": {"add": _list(None), "drop": _list(None)},
    "privileged": None, "seLinuxOptions": ANY, "windowsOptions": ANY, "runAsUser": None, "runAsGroup": None,
    "runAsNonRoot": None, "readOnlyRootFilesystem": None, "allowPrivilegeEscalation": None, "procMount": None,
    "seccompProfile": _SECCOMP, "appArmorProfile": _SECCOMP,
}
_CONTAINER = {
    "name": None, "image": None, "command": _list(None), "args": _list(None), "workingDir": None, "ports": ANY,
    "envFrom": ANY, "env": _list({"name": None, "value": None, "valueFrom": ANY}),
    "resources": {"limits": MAP, "requests": MAP, "claims": ANY},
    "volumeMounts": _list({"name": None, "mountPath": None, "readOnly": None, "subPath": None, "subPathExpr": None,
                           "mountPropagation": None, "recursiveReadOnly": None}),
    "volumeDevices": ANY, "livenessProbe": ANY, "readinessProbe": ANY, "startupProbe": ANY, "lifecycle": ANY,
    "terminationMessagePath": None, "terminationMessagePolicy": None, "imagePullPolicy": None,
    "securityContext": _CONTAINER_SECURITY, "stdin": None, "stdinOnce": None, "tty": None, "restartPolicy": None,
    "resizePolicy": ANY,
}
_POD_SECURITY = {
    "seLinuxOptions": ANY, "windowsOptions": ANY, "runAsUser": None, "runAsGroup": None, "runAsNonRoot": None,
    "supplementalGroups": _list(None), "supplementalGroupsPolicy": None, "fsGroup": None,
    "fsGroupChangePolicy": None, "sysctls": ANY, "seccompProfile": _SECCOMP, "appArmorProfile": _SECCOMP,
    "seLinuxChangePolicy": None,
}
_VOLUME = {"name": None, "emptyDir": {"medium": None, "sizeLimit": None}}
_VOLUME.update({k: ANY for k in ("hostPath", "configMap", "secret", "projected", "persistentVolumeClaim",
                                 "downwardAPI", "ephemeral", "csi", "image", "nfs")})
_POD_SPEC = {
    "containers": _list(_CONTAINER), "initContainers": _list(_CONTAINER), "ephemeralContainers": ANY,
    "volumes": _list(_VOLUME), "restartPolicy": None, "terminationGracePeriodSeconds": None,
    "activeDeadlineSeconds": None, "dnsPolicy": None, "nodeSelector": MAP, "serviceAccountName": None,
    "serviceAccount": None, "automountServiceAccountToken": None, "nodeName": None, "hostNetwork": None,
    "hostPID": None, "hostIPC": None, "shareProcessNamespace": None, "securityContext": _POD_SECURITY,
    "imagePullSecrets": _list({"name": None}), "hostname": None, "subdomain": None, "affinity": ANY,
    "schedulerName": None,
    "tolerations": _list({"key": None, "operator": None, "value": None, "effect": None,
                          "tolerationSeconds": None}),
    "hostAliases": ANY, "priorityClassName": None, "priority": None, "dnsConfig": ANY, "readinessGates": ANY,
    "runtimeClassName": None, "enableServiceLinks": None, "preemptionPolicy": None, "overhead": MAP,
    "topologySpreadConstraints": ANY, "setHostnameAsFQDN": None, "os": {"name": None}, "hostUsers": None,
    "schedulingGates": ANY, "resourceClaims": ANY, "resources": ANY,
}
POD = {"apiVersion": None, "kind": None, "metadata": _METADATA, "spec": _POD_SPEC, "status": ANY}

_SELECTOR = {"matchLabels": MAP, "matchExpressions": ANY}
_PEER = {"podSelector": _SELECTOR, "namespaceSelector": _SELECTOR, "ipBlock": ANY}
NETWORK_POLICY = {
    "apiVersion": None, "kind": None, "metadata": _METADATA,
    "spec": {"podSelector": _SELECTOR, "policyTypes": _list(None),
             "ingress": _list({"from": _list(_PEER), "ports": ANY}),
             "egress": _list({"to": _list(_PEER), "ports": ANY})},
    "status": ANY,
}

RESOURCE_QUOTA = {"apiVersion": None, "kind": None, "metadata": _METADATA,
                  "spec": {"hard": MAP, "scopes": ANY, "scopeSelector": ANY}, "status": ANY}
NAMESPACE = {"apiVersion": None, "kind": None, "metadata": _METADATA, "spec": {"finalizers": ANY}, "status": ANY}

SELF_SUBJECT_REVIEW = {"apiVersion": None, "kind": None, "metadata": _METADATA, "status": ANY}

SELF_SUBJECT_ACCESS_REVIEW = {
    "apiVersion": None, "kind": None, "metadata": _METADATA,
    "spec": {"resourceAttributes": {k: None for k in ("namespace", "verb", "group", "version", "resource",
                                                      "subresource", "name")}
             | {"fieldSelector": ANY, "labelSelector": ANY},
             "nonResourceAttributes": {"path": None, "verb": None}},
    "status": ANY,
}


def unknown_fields(obj, schema, path=""):
    """Paths of fields the schema does not know, formatted like the real decoder (`spec.containers[0].foo`)."""
    if schema is ANY or schema is None or obj is None:
        return []
    if schema == MAP:
        return []
    if isinstance(schema, tuple):
        if not isinstance(obj, list):
            return []
        found = []
        for i, item in enumerate(obj):
            found += unknown_fields(item, schema[1], f"{path}[{i}]")
        return found
    if not isinstance(obj, dict):
        return []
    found = []
    for key, value in obj.items():
        child = f"{path}.{key}" if path else key
        if key not in schema:
            found.append(child)
        else:
            found += unknown_fields(value, schema[key], child)
    return found


def drop_unknown(obj, schema):
    """fieldValidation=Ignore/Warn: the decoder silently drops what it does not know."""
    if schema is ANY or schema is None or schema == MAP or obj is None:
        return
    if isinstance(schema, tuple):
        for item in obj if isinstance(obj, list) else []:
            drop_unknown(item, schema[1])
        return
    if isinstance(obj, dict):
        for key in list(obj):
            if key not in schema:
                del obj[key]
            else:
                drop_unknown(obj[key], schema[key])


_QUANTITY = re.compile(r"^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$")
_SUFFIX = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60, "n": 1e-9, "u": 1e-6,
           "m": 1e-3, "": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18}


def parse_quantity(text):
    """A resource.Quantity as a float (cores, bytes), or None when it is not one."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return float(text)
    if not isinstance(text, str):
        return None
    match = _QUANTITY.match(text.strip())
    if not match:
        return None
    number, suffix = float(match.group(1)), match.group(2) or ""
    if suffix[:1] in ("e", "E"):
        return number * 10 ** int(suffix[1:])
    return number * _SUFFIX[suffix]


_DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
_DNS_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
_DNS_LABEL_MSG = ("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must "
                  "start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for "
                  "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')")
_DNS_SUBDOMAIN_MSG = ("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
                      "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
                      "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")


_QUALIFIED_NAME = re.compile(r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$")
_LABEL_VALUE = re.compile(r"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$")
_ENV_NAME = re.compile(r"^[-._a-zA-Z][-._a-zA-Z0-9]*$")
_QUALIFIED_NAME_MSG = ("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
                       "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
                       "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")
_LABEL_VALUE_MSG = ("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
                    "and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or "
                    "'12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')")
_ENV_NAME_MSG = ("a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', "
                 "and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex "
                 "used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')")
_STANDARD_CONTAINER_RESOURCES = ("cpu", "memory", "ephemeral-storage")


def _go_value(value):
    # field.Invalid renders strings with %q and other values with %v.
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class Errors:
    """A field.ErrorList: each entry (field, reason, body, rendered) as apierrors.NewInvalid wants it."""

    def __init__(self):
        self.items = []

    def _add(self, field, reason, body):
        self.items.append((field, reason, body, f"{field}: {body}"))

    def required(self, field, detail=""):
        self._add(field, "FieldValueRequired", "Required value" + (f": {detail}" if detail else ""))

    def invalid(self, field, value, detail):
        self._add(field, "FieldValueInvalid", f"Invalid value: {_go_value(value)}: {detail}")

    def unsupported(self, field, value, supported):
        quoted = ", ".join(_go_value(s) for s in supported)
        self._add(field, "FieldValueNotSupported", f"Unsupported value: {_go_value(value)}: supported values: {quoted}")

    def not_found(self, field, value):
        self._add(field, "FieldValueNotFound", f"Not found: {_go_value(value)}")

    def duplicate(self, field, value):
        self._add(field, "FieldValueDuplicate", f"Duplicate value: {_go_value(value)}")

    def forbidden(self, field, detail):
        self._add(field, "FieldValueForbidden", f"Forbidden: {detail}")


def _validate_key(errors, key, path):
    """A label or annotation key: an optional DNS subdomain prefix and `/`, then a qualified name."""
    prefix, _, name = key.rpartition("/")
    if prefix and (len(prefix) > 253 or not _DNS_SUBDOMAIN.match(prefix)):
        errors.invalid(path, key, "prefix part " + _DNS_SUBDOMAIN_MSG)
    if not name:
        errors.invalid(path, key, "name part must be non-empty")
    elif len(name) > 63:
        errors.invalid(path, key, "name part must be no more than 63 characters")
    elif not _QUALIFIED_NAME.match(name):
        errors.invalid(path, key, _QUALIFIED_NAME_MSG)


def validate_labels(errors, labels, path):
    for key, value in (labels or {}).items():
        _validate_key(errors, key, path)
        if not isinstance(value, str):
            errors.invalid(path, value, "must be a string")
        elif len(value) > 63:
            errors.invalid(path, value, "must be no more than 63 characters")
        elif not _LABEL_VALUE.match(value):
            errors.invalid(path, value, _LABEL_VALUE_MSG)


def validate_metadata(errors, meta, subdomain=True):
    validate_object_name(errors, meta, subdomain)
    validate_labels(errors, meta.get("labels"), "metadata.labels")
    for key in meta.get("annotations") or {}:
        _validate_key(errors, key, "metadata.annotations")


def validate_object_name(errors, meta, subdomain=True):
    name = meta.get("name")
    if not name:
        if not meta.get("generateName"):
            errors.required("metadata.name", "name or generateName is required")
        return
    pattern, message = (_DNS_SUBDOMAIN, _DNS_SUBDOMAIN_MSG) if subdomain else (_DNS_LABEL, _DNS_LABEL_MSG)
    if len(name) > 253 or not pattern.match(name):
        errors.invalid("metadata.name", name, message)


def _validate_quantities(errors, resources, path):
    for kind in ("limits", "requests"):
        for key, value in (resources.get(kind) or {}).items():
            if "/" not in key and key not in _STANDARD_CONTAINER_RESOURCES and not key.startswith("hugepages-"):
                errors.invalid(f"{path}.{kind}[{key}]", key, "must be a standard resource for containers")
            elif parse_quantity(value) is None:
                errors.invalid(f"{path}.{kind}[{key}]", value, "must match the regex "
                               "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$")
            elif parse_quantity(value) < 0:
                errors.invalid(f"{path}.{kind}[{key}]", value, "must be greater than or equal to 0")
    limits, requests = resources.get("limits") or {}, resources.get("requests") or {}
    for key, value in requests.items():
        if key in limits and parse_quantity(value) is not None and parse_quantity(limits[key]) is not None \
                and parse_quantity(value) > parse_quantity(limits[key]):
            errors.invalid(f"{path}.requests", value, f"must be less than or equal to {key} limit of {limits[key]}")


def _validate_seccomp(errors, profile, path):
    kind = profile.get("type")
    if kind not in ("RuntimeDefault", "Unconfined", "Localhost"):
        errors.unsupported(f"{path}.type", kind, ["Localhost", "RuntimeDefault", "Unconfined"])
    elif kind == "Localhost" and not profile.get("localhostProfile"):
        errors.required(f"{path}.localhostProfile", "must be set when seccomp type is Localhost")
    elif kind != "Localhost" and profile.get("localhostProfile"):
        errors.invalid(f"{path}.localhostProfile", profile["localhostProfile"],
                       "can only be set when seccomp type is Localhost")


def _validate_container(errors, container, path, volume_names, names):
    name = container.get("name")
    if not name:
        errors.required(f"{path}.name")
    elif not _DNS_LABEL.match(name) or len(name) > 63:
        errors.invalid(f"{path}.name", name, _DNS_LABEL_MSG)
    elif name in names:
        errors.duplicate(f"{path}.name", name)
    names.add(name)
    if not container.get("image"):
        errors.required(f"{path}.image")
    policy = container.get("imagePullPolicy")
    if policy not in (None, "Always", "IfNotPresent", "Never"):
        errors.unsupported(f"{path}.imagePullPolicy", policy, ["Always", "IfNotPresent", "Never"])
    _validate_quantities(errors, container.get("resources") or {}, f"{path}.resources")
    for i, env in enumerate(container.get("env") or []):
        if not env.get("name"):
            errors.required(f"{path}.env[{i}].name")
        elif not _ENV_NAME.match(env["name"]):
            errors.invalid(f"{path}.env[{i}].name", env["name"], _ENV_NAME_MSG)
    mount_paths = set()
    for i, mount in enumerate(container.get("volumeMounts") or []):
        if not mount.get("name"):
            errors.required(f"{path}.volumeMounts[{i}].name")
        elif mount["name"] not in volume_names:
            errors.not_found(f"{path}.volumeMounts[{i}].name", mount["name"])
        if not mount.get("mountPath"):
            errors.required(f"{path}.volumeMounts[{i}].mountPath")
        elif mount["mountPath"] in mount_paths:
            errors.invalid(f"{path}.volumeMounts[{i}].mountPath", mount["mountPath"], "must be unique")
        mount_paths.add(mount.get("mountPath"))
    security = container.get("securityContext") or {}
    for key in ("runAsUser", "runAsGroup"):
        if key in security and (not isinstance(security[key], int) or security[key] < 0):
            errors.invalid(f"{path}.securityContext.{key}", security[key],
                           "must be between 0 and 2147483647, inclusive")
    if security.get("allowPrivilegeEscalation") is False and security.get("privileged"):
        errors.invalid(f"{path}.securityContext", security,
                       "cannot set `allowPrivilegeEscalation` to false and `privileged` to true")
    if security.get("seccompProfile") is not None:
        _validate_seccomp(errors, security["seccompProfile"], f"{path}.securityContext.seccompProfile")
    if container.get("stdinOnce") and not container.get("stdin"):
        errors.forbidden(f"{path}.stdinOnce", "stdinOnce requires stdin to be true")


def validate_pod(pod):
    errors = Errors()
    meta, spec = pod.get("metadata") or {}, pod.get("spec") or {}
    validate_metadata(errors, meta)
    validate_labels(errors, spec.get("nodeSelector"), "spec.nodeSelector")
    volume_names = set()
    for i, volume in enumerate(spec.get("volumes") or []):
        name = volume.get("name")
        if not name:
            errors.required(f"spec.volumes[{i}].name")
        elif len(name) > 63 or not _DNS_LABEL.match(name):
            errors.invalid(f"spec.volumes[{i}].name", name, _DNS_LABEL_MSG)
        elif name in volume_names:
            errors.duplicate(f"spec.volumes[{i}].name", name)
        volume_names.add(name)
        empty_dir = volume.get("emptyDir")
        if empty_dir is not None:
            medium = empty_dir.get("medium", "")
            if medium not in ("", "Memory", "HugePages"):
                errors.unsupported(f"spec.volumes[{i}].emptyDir.medium", medium, ["", "Memory", "HugePages"])
            limit = empty_dir.get("sizeLimit")
            if limit is not None and (parse_quantity(limit) is None or parse_quantity(limit) < 0):
                errors.invalid(f"spec.volumes[{i}].emptyDir.sizeLimit", limit, "must be greater than or equal to 0")
    containers = spec.get("containers") or []
    if not containers:
        errors.required("spec.containers")
    names = set()
    for i, container in enumerate(spec.get("initContainers") or []):
        _validate_container(errors, container, f"spec.initContainers[{i}]", volume_names, names)
    for i, container in enumerate(containers):
        _validate_container(errors, container, f"spec.containers[{i}]", volume_names, names)
    policy = spec.get("restartPolicy")
    if policy not in (None, "Always", "OnFailure", "Never"):
        errors.unsupported("spec.restartPolicy", policy, ["Always", "OnFailure", "Never"])
    deadline = spec.get("activeDeadlineSeconds")
    if deadline is not None and (not isinstance(deadline, int) or deadline < 1 or deadline > 2**31 - 1):
        errors.invalid("spec.activeDeadlineSeconds", deadline, "must be between 1 and 2147483647, inclusive")
    grace = spec.get("terminationGracePeriodSeconds")
    if grace is not None and (not isinstance(grace, int) or grace < 0):
        errors.invalid("spec.terminationGracePeriodSeconds", grace, "must be greater than or equal to 0")
    security = spec.get("securityContext") or {}
    if security.get("seccompProfile") is not None:
        _validate_seccomp(errors, security["seccompProfile"], "spec.securityContext.seccompProfile")
    for i, toleration in enumerate(spec.get("tolerations") or []):
        operator = toleration.get("operator", "Equal")
        if operator not in ("Equal", "Exists"):
            errors.unsupported(f"spec.tolerations[{i}].operator", operator, ["Equal", "Exists"])
    return errors.items


def validate_network_policy(policy):
    errors = Errors()
    meta, spec = policy.get("metadata") or {}, policy.get("spec") or {}
    validate_metadata(errors, meta)
    validate_labels(errors, (spec.get("podSelector") or {}).get("matchLabels"), "spec.podSelector.matchLabels")
    if "podSelector" not in spec:
        # The field is required in the OpenAPI schema; the server defaults an absent one to {} (all pods).
        spec["podSelector"] = {}
    for i, kind in enumerate(spec.get("policyTypes") or []):
        if kind not in ("Ingress", "Egress"):
            errors.unsupported(f"spec.policyTypes[{i}]", kind, ["Ingress", "Egress"])
    return errors.items
