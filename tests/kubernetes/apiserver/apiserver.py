"""The HTTP surface: routes, authentication and authorization, request decoding, list/watch, and the pod,
network policy, access review, quota and metrics endpoints. Pods run through PodRuntime; streams through
RemoteCommand.
"""

import asyncio
import datetime
import json
import logging
import random

from aiohttp import web

import access
import discovery
import kubestatus
import metrics
import openapi
import pod_defaults
import protobuf_body
import schema
import query_selectors
import tables
from docker_api import DockerError, demultiplex_bytes
from pod_runtime import NODE_LABELS, NODE_NAME
from remote_command import RemoteCommand

log = logging.getLogger("apiserver")
_NAME_CHARS = "bcdfghjklmnpqrstvwxz2456789"  # the generator's alphabet (no vowels, no look-alikes)


def _json(body, status=200, headers=None):
    # Exactly `application/json`, no charset parameter, as the real server sends it.
    return web.Response(status=status, body=kubestatus.compact_json(body),
                        headers={"Content-Type": "application/json", **(headers or {})})


class ApiServer:
    def __init__(self, store, runtime, docker, credentials, options):
        self.store = store
        self.runtime = runtime
        self.docker = docker
        self.credentials = credentials
        self.options = options  # state_dir, max_pods, quota_name, namespaces, runtimes, server_address
        self.streams = RemoteCommand(docker, options["state_dir"])
        for namespace in options["namespaces"]:
            self._add_namespace(namespace)

    def _add_namespace(self, name):
        namespace = self.store.create("namespaces", {
            "apiVersion": "v1", "kind": "Namespace",
            "metadata": {"name": name, "labels": {"kubernetes.io/metadata.name": name}},
            "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}})
        if self.options["max_pods"] is not None:
            # --max-pods: every namespace has a ResourceQuota, as an administrator would have set one up.
            self.store.create("resourcequotas", {
                "apiVersion": "v1", "kind": "ResourceQuota",
                "metadata": {"name": self.options["quota_name"], "namespace": name},
                "spec": {"hard": {"pods": str(self.options["max_pods"])}}})
        return namespace

    def app(self):
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        r = app.router
        r.add_get("/version", lambda _: _json(discovery.VERSION))
        for path in ("/healthz", "/livez", "/readyz"):
            r.add_get(path, lambda _: web.Response(text="ok"))
        r.add_get("/api", lambda _: _json(discovery.api_versions(self.options["server_address"])))
        r.add_get("/api/v1", lambda _: _json(discovery.CORE_V1))
        r.add_get("/apis", lambda _: _json(discovery.api_group_list(self._hidden_groups())))
        r.add_get("/openapi/v3", lambda _: _json(openapi.root()))
        r.add_get("/openapi/v3/{gv:.+}", self._openapi)
        if self.options.get("metrics_api") == "unavailable":
            # kube-aggregator in front of an APIService whose service is down: plain text, not a Status.
            r.add_get("/apis/metrics.k8s.io{tail:.*}", self._service_unavailable)
        r.add_get("/apis/{group}", self._group)
        r.add_get("/apis/{group}/{version}", self._group_version)
        r.add_get("/api/v1/namespaces", self._list_namespaces)
        r.add_post("/api/v1/namespaces", self._create_namespace)
        r.add_get("/api/v1/namespaces/{namespace}", self._get_namespace)
        r.add_get("/api/v1/nodes", self._list_nodes)
        r.add_get("/apis/node.k8s.io/v1/runtimeclasses", self._list_runtime_classes)
        r.add_get("/apis/node.k8s.io/v1/runtimeclasses/{name}", self._get_runtime_class)
        r.add_get("/api/v1/pods", self._list_pods)
        r.add_get("/api/v1/namespaces/{namespace}/pods", self._list_pods)
        r.add_post("/api/v1/namespaces/{namespace}/pods", self._create_pod)
        r.add_delete("/api/v1/namespaces/{namespace}/pods", self._delete_pods)
        r.add_get("/api/v1/namespaces/{namespace}/pods/{name}", self._get_pod)
        r.add_delete("/api/v1/namespaces/{namespace}/pods/{name}", self._delete_pod)
        r.add_patch("/api/v1/namespaces/{namespace}/pods/{name}", self._patch_pod)
        r.add_get("/api/v1/namespaces/{namespace}/pods/{name}/status", self._get_pod)
        r.add_get("/api/v1/namespaces/{namespace}/pods/{name}/log", self._pod_log)
        for sub in ("exec", "attach"):
            r.add_route("GET", f"/api/v1/namespaces/{{namespace}}/pods/{{name}}/{sub}", self._stream)
            r.add_route("POST", f"/api/v1/namespaces/{{namespace}}/pods/{{name}}/{sub}", self._stream)
        r.add_get("/api/v1/namespaces/{namespace}/resourcequotas", self._list_quotas)
        r.add_post("/api/v1/namespaces/{namespace}/resourcequotas", self._create_quota)
        netpol = "/apis/networking.k8s.io/v1/namespaces/{namespace}/networkpolicies"
        r.add_get(netpol, self._list_policies)
        r.add_post(netpol, self._create_policy)
        r.add_get(netpol + "/{name}", self._get_policy)
        r.add_delete(netpol + "/{name}", self._delete_policy)
        r.add_post("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", self._access_review)
        r.add_post("/apis/authentication.k8s.io/v1/selfsubjectreviews", self._who_am_i)
        if self.options.get("metrics_api", "served") == "served":
            r.add_get("/apis/metrics.k8s.io/v1beta1/namespaces/{namespace}/pods", self._pod_metrics_list)
            r.add_get("/apis/metrics.k8s.io/v1beta1/namespaces/{namespace}/pods/{name}", self._pod_metrics)
        return app

    # ---- plumbing -----------------------------------------------------------------------------------------------
    @web.middleware
    async def _middleware(self, request, handler):
        try:
            user = access.authenticate(request, self.credentials.users_by_token)
            if user is None:
                raise kubestatus.unauthorized()
            request["user"] = user
            return await handler(request)
        except kubestatus.StatusError as error:
            return error.response()
        except web.HTTPNotFound:
            # Like the real server for a path it does not serve.
            return _json(kubestatus.status_body(404, "NotFound", "the server could not find the requested resource",
                                                {}), status=404)
        except web.HTTPMethodNotAllowed:
            return _json(kubestatus.status_body(405, "MethodNotAllowed", "the server does not allow this method on "
                                                "the requested resource", {}), status=405)
        except DockerError as error:
            log.warning("docker: %s", error)
            return _json(kubestatus.status_body(500, "InternalError", f"Internal error occurred: {error}",
                                                {"causes": [{"message": str(error)}]}), status=500)

    def _authorize(self, request, verb, resource, subresource="", name="", namespace="", group=""):
        user = request["user"]
        if not access.allowed(user, verb, group, resource, subresource):
            raise kubestatus.rbac_denied(user.name, verb, resource, subresource, name, namespace, group)

    def _namespace(self, request):
        namespace = request.match_info["namespace"]
        if self.store.get("namespaces", "", namespace) is None:
            raise kubestatus.not_found("namespaces", namespace)
        return namespace

    async def _decode(self, request, kind, version, known):
        """The body as an object: strict decoding per fieldValidation, like the real decoder."""
        content_type = request.headers.get("Content-Type", "application/json").split(";")[0].strip()
        raw = await request.read()
        if content_type == "application/vnd.kubernetes.protobuf":
            body = protobuf_body.decode(raw, kind)
            if body is None:
                raise kubestatus.StatusError(
                    415, "UnsupportedMediaType", "the body of the request was in an unknown format - accepted "
                                                 "media types include: application/json")
            return body, []
        if content_type not in ("application/json", ""):
            # YAML bodies are not decoded here: the 415 of a server that does not take them.
            raise kubestatus.StatusError(
                415, "UnsupportedMediaType", "the body of the request was in an unknown format - accepted media "
                                             "types include: application/json, application/vnd.kubernetes.protobuf")
        try:
            body = json.loads(raw)
        except ValueError as error:
            raise kubestatus.bad_request(f"{kind} in version \"{version}\" cannot be handled as a {kind}: "
                                         f"json parse error: {error}")
        if not isinstance(body, dict):
            raise kubestatus.bad_request(f"{kind} in version \"{version}\" cannot be handled as a {kind}: "
                                         f"json: cannot unmarshal {type(body).__name__} into Go value of type "
                                         f"struct")
        unknown = schema.unknown_fields(body, known)
        mode = request.query.get("fieldValidation", "Warn")
        if mode not in ("Strict", "Warn", "Ignore"):
            raise kubestatus.bad_request(f'fieldValidation invalid value: {mode}')
        warnings = []
        if unknown and mode == "Strict":
            fields = ", ".join(f'unknown field "{f}"' for f in unknown)
            raise kubestatus.bad_request(f'{kind} in version "{version}" cannot be handled as a {kind}: '
                                         f"strict decoding error: {fields}")
        if unknown:
            schema.drop_unknown(body, known)
            if mode == "Warn":
                warnings = [f'299 - "unknown field \\"{f}\\""' for f in unknown]
        return body, warnings

    def _check_namespace_matches(self, body, namespace):
        meta = body.setdefault("metadata", {})
        if meta.get("namespace") and meta["namespace"] != namespace:
            raise kubestatus.bad_request("the namespace of the provided object does not match the namespace sent on "
                                         "the request")
        meta["namespace"] = namespace
        if not meta.get("name") and meta.get("generateName"):
            meta["name"] = meta["generateName"] + "".join(random.choice(_NAME_CHARS) for _ in range(5))

    async def _list_or_watch(self, request, resource, namespace, kind, api_version, to_table=None):
        labels = query_selectors.label_matcher(request.query.get("labelSelector"))
        fields = query_selectors.field_matcher(request.query.get("fieldSelector"))

        def matches(obj):
            return labels(obj["metadata"].get("labels") or {}) and fields(obj)
        if request.query.get("watch", "").lower() in ("1", "true"):
            as_table = to_table and "as=Table" in request.headers.get("Accept", "")
            include = request.query.get("includeObject", "Metadata")
            # `kubectl get -w` asks for each event's object as a one-row Table.
            convert = (lambda obj: to_table([obj], include)) if as_table else None
            return await self._watch(request, resource, namespace, matches, convert)
        items = [o for o in self.store.list(resource, namespace) if matches(o)]
        if to_table and "as=Table" in request.headers.get("Accept", ""):
            return _json(to_table(items, request.query.get("includeObject", "Metadata")))
        return _json({"kind": f"{kind}List", "apiVersion": api_version,
                      "metadata": {"resourceVersion": self.store.version}, "items": items})

    async def _watch(self, request, resource, namespace, matches, convert=None):
        since = request.query.get("resourceVersion", "")
        if since and not since.isdigit():
            raise kubestatus.bad_request(f'invalid resource version: {since}')
        timeout = float(request.query.get("timeoutSeconds", "1800"))
        watcher = self.store.watch(resource, namespace, matches, since)
        response = web.StreamResponse(headers={"Content-Type": "application/json"})
        response.enable_chunked_encoding()
        await response.prepare(request)
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        try:
            while True:
                remaining = end - loop.time()
                if remaining <= 0:
                    break
                try:
                    event = await asyncio.wait_for(watcher.queue.get(), remaining)
                except asyncio.TimeoutError:
                    break
                if convert and event["type"] != "ERROR":
                    event = {"type": event["type"], "object": convert(event["object"])}
                await response.write(kubestatus.compact_json(event) + b"\n")
                if watcher.expired:
                    break
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            watcher.close()
        return response

    # ---- discovery, namespaces, nodes ---------------------------------------------------------------------------
    async def _openapi(self, request):
        document = openapi.group_version(request.match_info["gv"])
        if document is None:
            raise web.HTTPNotFound()
        return _json(document)

    def _hidden_groups(self):
        # Without metrics-server there is no metrics.k8s.io APIService; an unavailable one is left out of /apis by
        # the aggregator.
        return () if self.options.get("metrics_api", "served") == "served" else ("metrics.k8s.io",)

    async def _service_unavailable(self, _request):
        return web.Response(status=503, text="service unavailable\n",
                            headers={"X-Content-Type-Options": "nosniff"})

    async def _group(self, request):
        group = request.match_info["group"]
        if group not in discovery.GROUPS or group in self._hidden_groups():
            raise web.HTTPNotFound()
        return _json(discovery.api_group(group))

    async def _group_version(self, request):
        group, version = request.match_info["group"], request.match_info["version"]
        if group not in discovery.GROUPS or group in self._hidden_groups() or discovery.GROUPS[group][0] != version:
            raise web.HTTPNotFound()
        return _json(discovery.resource_list(group))

    async def _list_namespaces(self, request):
        self._authorize(request, "list", "namespaces")
        return await self._list_or_watch(request, "namespaces", None, "Namespace", "v1")

    async def _get_namespace(self, request):
        name = request.match_info["namespace"]
        self._authorize(request, "get", "namespaces", name=name)
        obj = self.store.get("namespaces", "", name)
        if obj is None:
            raise kubestatus.not_found("namespaces", name)
        return _json(obj)

    def _runtime_classes(self):
        """The RuntimeClasses the node offers (--runtime-class NAME=DOCKER_RUNTIME), each handled by that runtime."""
        return {name: {"apiVersion": "node.k8s.io/v1", "kind": "RuntimeClass",
                       "metadata": {"name": name, "resourceVersion": "1"}, "handler": runtime}
                for name, runtime in self.options["runtimes"].items() if name}

    async def _list_runtime_classes(self, request):
        self._authorize(request, "list", "runtimeclasses", group="node.k8s.io")
        return _json({"kind": "RuntimeClassList", "apiVersion": "node.k8s.io/v1",
                      "metadata": {"resourceVersion": self.store.version},
                      "items": list(self._runtime_classes().values())})

    async def _get_runtime_class(self, request):
        name = request.match_info["name"]
        self._authorize(request, "get", "runtimeclasses", name=name, group="node.k8s.io")
        runtime_class = self._runtime_classes().get(name)
        if runtime_class is None:
            raise kubestatus.not_found("runtimeclasses", name, "node.k8s.io")
        return _json(runtime_class)

    async def _list_nodes(self, request):
        self._authorize(request, "list", "nodes")
        node = {"apiVersion": "v1", "kind": "Node",
                "metadata": {"name": NODE_NAME, "labels": NODE_LABELS, "resourceVersion": "1"},
                "spec": {}, "status": {"conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady"}],
                                       "nodeInfo": {"containerRuntimeVersion": "docker://", "kubeletVersion":
                                                    discovery.VERSION["gitVersion"], "operatingSystem": "linux",
                                                    "architecture": "amd64"}}}
        return _json({"kind": "NodeList", "apiVersion": "v1", "metadata": {"resourceVersion": self.store.version},
                      "items": [node]})

    # ---- pods ---------------------------------------------------------------------------------------------------
    async def _list_pods(self, request):
        namespace = self._namespace(request) if "namespace" in request.match_info else None
        watch = request.query.get("watch", "").lower() in ("1", "true")
        self._authorize(request, "watch" if watch else "list", "pods", namespace=namespace or "")
        return await self._list_or_watch(request, "pods", namespace, "Pod", "v1", tables.pod_table)

    async def _get_pod(self, request):
        """The pod, also as its status subresource (the same object, as on the real server)."""
        namespace, name = self._namespace(request), request.match_info["name"]
        sub = "status" if request.path.endswith("/status") else ""
        self._authorize(request, "get", "pods", sub, name=name, namespace=namespace)
        pod = self.store.get("pods", namespace, name)
        if pod is None:
            raise kubestatus.not_found("pods", name)
        if "as=Table" in request.headers.get("Accept", ""):
            return _json(tables.pod_table([pod], request.query.get("includeObject", "Metadata")))
        return _json(pod)

    async def _create_pod(self, request):
        namespace = self._namespace(request)
        self._authorize(request, "create", "pods", namespace=namespace)
        body, warnings = await self._decode(request, "Pod", "v1", schema.POD)
        # Admission sees the name of the request: empty for generateName, whose name is made later.
        requested_name = (body.get("metadata") or {}).get("name", "")
        self._check_namespace_matches(body, namespace)
        pod_defaults.default_pod(body)
        errors = schema.validate_pod(body)
        name = body["metadata"].get("name", "")
        if errors:
            raise kubestatus.invalid("Pod", name, errors)
        # Admission, in the real order: after validation, before storage (so a quota refusal wins over a clash).
        runtime_class = body["spec"].get("runtimeClassName")
        if runtime_class and runtime_class not in self.options["runtimes"]:
            raise kubestatus.forbidden("pods", requested_name,
                                       f'pod rejected: RuntimeClass "{runtime_class}" not found')
        self._admit_quota(namespace, requested_name)
        if self.store.get("pods", namespace, name) is not None:
            raise kubestatus.already_exists("pods", name)
        if request.query.get("dryRun") == "All":
            return _json(body, status=201)
        pod = self.store.create("pods", body)
        self.runtime.start(pod)
        headers = {"Warning": ", ".join(warnings)} if warnings else None
        return _json(pod, status=201, headers=headers)

    async def _patch_pod(self, request):
        """JSON merge patch (strategic merge patch is the same for the maps a client patches: labels, annotations),
        limited to what a pod update may change, with the real refusal for anything else."""
        namespace, name = self._namespace(request), request.match_info["name"]
        self._authorize(request, "patch", "pods", name=name, namespace=namespace)
        content_type = request.headers.get("Content-Type", "").split(";")[0].strip()
        if content_type not in ("application/merge-patch+json", "application/strategic-merge-patch+json"):
            raise kubestatus.StatusError(
                415, "UnsupportedMediaType", "the body of the request was in an unknown format - accepted media "
                                             "types include: application/merge-patch+json, "
                                             "application/strategic-merge-patch+json")
        pod = self.store.get("pods", namespace, name)
        if pod is None:
            raise kubestatus.not_found("pods", name)
        try:
            patch = json.loads(await request.read())
        except ValueError as error:
            raise kubestatus.bad_request(f"error decoding patch: {error}")
        if not isinstance(patch, dict):
            raise kubestatus.bad_request("error decoding patch: not a JSON object")
        patched = pod_defaults.merge_patch(pod, patch)
        errors = schema.Errors()
        if patched["spec"] != pod["spec"] and not pod_defaults.spec_update_allowed(pod["spec"], patched["spec"]):
            errors.forbidden("spec", pod_defaults.SPEC_UPDATE_FORBIDDEN)
        schema.validate_metadata(errors, patched["metadata"])
        if errors.items:
            raise kubestatus.invalid("Pod", name, errors.items)
        for key in ("name", "namespace", "uid", "creationTimestamp"):
            patched["metadata"][key] = pod["metadata"][key]
        patched["status"] = pod["status"]
        return _json(self.store.update("pods", patched))

    async def _delete_options(self, request):
        raw = await request.read()
        options = {}
        if raw.strip():
            try:
                options = json.loads(raw)
            except ValueError as error:
                raise kubestatus.bad_request(f"json parse error: {error}")
        if "gracePeriodSeconds" in request.query:
            options["gracePeriodSeconds"] = int(request.query["gracePeriodSeconds"])
        return options

    async def _delete_pod(self, request):
        namespace, name = self._namespace(request), request.match_info["name"]
        self._authorize(request, "delete", "pods", name=name, namespace=namespace)
        options = await self._delete_options(request)
        pod = self.store.get("pods", namespace, name)
        if pod is None:
            raise kubestatus.not_found("pods", name)
        return _json(self._delete_one(pod, options.get("gracePeriodSeconds")))

    async def _delete_pods(self, request):
        """deletecollection: every pod the selectors match; answers with the list of what was deleted."""
        namespace = self._namespace(request)
        self._authorize(request, "deletecollection", "pods", namespace=namespace)
        options = await self._delete_options(request)
        labels = query_selectors.label_matcher(request.query.get("labelSelector"))
        fields = query_selectors.field_matcher(request.query.get("fieldSelector"))
        items = [self._delete_one(p, options.get("gracePeriodSeconds")) for p in self.store.list("pods", namespace)
                 if labels(p["metadata"].get("labels") or {}) and fields(p)]
        return _json({"kind": "PodList", "apiVersion": "v1", "metadata": {"resourceVersion": self.store.version},
                      "items": items})

    def _delete_one(self, pod, grace):
        """The registry's graceful deletion: the object stays, with a deletionTimestamp, until its containers
        stopped; a pod that never ran or has finished, or a grace of 0, goes at once."""
        if grace is None:
            grace = pod["spec"].get("terminationGracePeriodSeconds", 30)
        if not pod["spec"].get("nodeName") or pod["status"].get("phase") in ("Succeeded", "Failed"):
            grace = 0
        if pod["metadata"].get("deletionTimestamp") and grace != 0:
            return pod  # already terminating: the real server answers with the object again
        namespace, name = pod["metadata"]["namespace"], pod["metadata"]["name"]
        if grace == 0:
            deleted = self.store.delete("pods", namespace, name)
            self.runtime.delete(pod, 0)
            return deleted
        when = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=grace)
        pod["metadata"]["deletionTimestamp"] = when.strftime("%Y-%m-%dT%H:%M:%SZ")
        pod["metadata"]["deletionGracePeriodSeconds"] = grace
        pod = self.store.update("pods", pod)
        self.runtime.delete(pod, grace)
        return pod

    def _pick_container(self, pod, request):
        names = [c["name"] for c in pod["spec"]["containers"]]
        name = request.query.get("container")
        if not name:
            if len(names) > 1:
                raise kubestatus.bad_request(f"a container name must be specified for pod "
                                             f"{pod['metadata']['name']}, choose one of: [{' '.join(names)}]")
            return names[0]
        if name not in names + [c["name"] for c in pod["spec"].get("initContainers") or []]:
            raise kubestatus.bad_request(f"container {name} is not valid for pod {pod['metadata']['name']}")
        return name

    def _running_container(self, pod, container):
        """The Docker id, or the 400 the real server gives when there is no running container to stream to.

        (`cannot exec into a container in a completed pod` is kubectl's own check before it calls the server;
        the server's answer for a finished or not yet started container is kubelet's `container not found`.)"""
        name = pod["metadata"]["name"]
        if not pod["spec"].get("nodeName"):
            raise kubestatus.bad_request(f"pod {name} does not have a host assigned")
        container_id = self.runtime.container_id(pod, container)
        # An init container that runs is streamed to as kubelet does (kubectl attach -c INIT).
        state = next((s.get("state", {}) for s in (pod["status"].get("containerStatuses") or [])
                      + (pod["status"].get("initContainerStatuses") or []) if s["name"] == container), {})
        if container_id is None or "running" not in state:
            raise kubestatus.bad_request(f'unable to upgrade connection: container not found ("{container}")')
        return container_id

    async def _stream(self, request):
        namespace, name = self._namespace(request), request.match_info["name"]
        sub = request.path.rsplit("/", 1)[-1]
        # Both verbs need create on the subresource: WebSocket upgrades arrive as GET.
        self._authorize(request, "create", "pods", sub, name=name, namespace=namespace)
        pod = self.store.get("pods", namespace, name)
        if pod is None:
            raise kubestatus.not_found("pods", name)
        if not any(request.query.get(s, "").lower() in ("1", "true") for s in ("stdin", "stdout", "stderr")):
            raise kubestatus.bad_request("you must specify at least 1 of stdin, stdout, stderr")
        container = self._pick_container(pod, request)
        container_id = self._running_container(pod, container)
        if sub == "exec":
            command = request.query.getall("command", [])
            if not command:
                raise kubestatus.bad_request("you must specify at least one command for the container")
            return await self.streams.exec(request, container_id, command)
        return await self.streams.attach(request, container_id)

    async def _pod_log(self, request):
        namespace, name = self._namespace(request), request.match_info["name"]
        self._authorize(request, "get", "pods", "log", name=name, namespace=namespace)
        pod = self.store.get("pods", namespace, name)
        if pod is None:
            raise kubestatus.not_found("pods", name)
        container = self._pick_container(pod, request)
        container_id = self.runtime.container_id(pod, container)
        if container_id is None:
            state = next((s.get("state", {}) for s in (pod["status"].get("containerStatuses") or [])
                          + (pod["status"].get("initContainerStatuses") or []) if s["name"] == container), {})
            reason = state.get("waiting", {}).get("reason", "ContainerCreating")
            if reason in ("ErrImagePull", "ImagePullBackOff"):
                reason = "trying and failing to pull image"
            raise kubestatus.bad_request(f'container "{container}" in pod "{name}" is waiting to start: {reason}')
        params = {"stdout": "1", "stderr": "1"}
        if request.query.get("timestamps", "").lower() in ("1", "true"):
            params["timestamps"] = "1"
        if "tailLines" in request.query:
            params["tail"] = request.query["tailLines"]
        if "sinceSeconds" in request.query:
            params["since"] = str(int(datetime.datetime.now().timestamp()) - int(request.query["sinceSeconds"]))
        limit = int(request.query["limitBytes"]) if "limitBytes" in request.query else None
        if request.query.get("follow", "").lower() in ("1", "true"):
            params["follow"] = "1"
            response = web.StreamResponse(headers={"Content-Type": "text/plain"})
            response.enable_chunked_encoding()
            await response.prepare(request)
            buffer = b""
            async for chunk in self.docker.stream_raw(f"/containers/{container_id}/logs", params=params):
                buffer += chunk
                frames = demultiplex_bytes(buffer)
                consumed = sum(8 + len(data) for _, data in frames)
                buffer = buffer[consumed:]
                for _, data in frames:
                    await response.write(data)
            return response
        raw = await self.docker.request("GET", f"/containers/{container_id}/logs", params=params, raw=True)
        text = b"".join(data for _, data in demultiplex_bytes(raw))
        if limit is not None:
            text = text[:limit]
        return web.Response(body=text, content_type="text/plain")

    # ---- quota, network policies, access reviews, metrics -------------------------------------------------------
    def _pods_in_use(self, namespace):
        # The pods quota counts pods that still hold resources: terminal ones do not.
        return sum(1 for p in self.store.list("pods", namespace)
                   if p["status"].get("phase") not in ("Succeeded", "Failed"))

    def _admit_quota(self, namespace, name):
        """The ResourceQuota admission plugin for the `pods` count, with its refusal message."""
        used = self._pods_in_use(namespace)
        for quota in self.store.list("resourcequotas", namespace):
            hard = (quota.get("spec") or {}).get("hard") or {}
            limit = schema.parse_quantity(hard.get("pods", hard.get("count/pods")))
            if limit is not None and used + 1 > limit:
                key = "pods" if "pods" in hard else "count/pods"
                raise kubestatus.forbidden(
                    "pods", name, f"exceeded quota: {quota['metadata']['name']}, requested: {key}=1, "
                                  f"used: {key}={used}, limited: {key}={hard[key]}")

    async def _list_quotas(self, request):
        namespace = self._namespace(request)
        self._authorize(request, "list", "resourcequotas", namespace=namespace)
        items = self.store.list("resourcequotas", namespace)
        for quota in items:
            hard = (quota.get("spec") or {}).get("hard") or {}
            quota["status"] = {"hard": hard, "used": {k: str(self._pods_in_use(namespace)) for k in hard
                                                      if k in ("pods", "count/pods")}}
        return _json({"kind": "ResourceQuotaList", "apiVersion": "v1",
                      "metadata": {"resourceVersion": self.store.version}, "items": items})

    async def _create_quota(self, request):
        namespace = self._namespace(request)
        self._authorize(request, "create", "resourcequotas", namespace=namespace)
        body, _ = await self._decode(request, "ResourceQuota", "v1", schema.RESOURCE_QUOTA)
        self._check_namespace_matches(body, namespace)
        body.update({"apiVersion": "v1", "kind": "ResourceQuota"})
        errors = schema.Errors()
        schema.validate_object_name(errors, body["metadata"])
        name = body["metadata"].get("name", "")
        for key, value in ((body.get("spec") or {}).get("hard") or {}).items():
            if schema.parse_quantity(value) is None:
                errors.invalid(f"spec.hard[{key}]", value, "must be a valid quantity")
        if errors.items:
            raise kubestatus.invalid("ResourceQuota", name, errors.items)
        if self.store.get("resourcequotas", namespace, name) is not None:
            raise kubestatus.already_exists("resourcequotas", name)
        return _json(self.store.create("resourcequotas", body), status=201)

    async def _create_namespace(self, request):
        self._authorize(request, "create", "namespaces")
        body, _ = await self._decode(request, "Namespace", "v1", schema.NAMESPACE)
        errors = schema.Errors()
        schema.validate_object_name(errors, body.get("metadata") or {}, subdomain=False)
        name = (body.get("metadata") or {}).get("name", "")
        if errors.items:
            raise kubestatus.invalid("Namespace", name, errors.items)
        if self.store.get("namespaces", "", name) is not None:
            raise kubestatus.already_exists("namespaces", name)
        return _json(self._add_namespace(name), status=201)

    async def _list_policies(self, request):
        namespace = self._namespace(request)
        self._authorize(request, "list", "networkpolicies", namespace=namespace, group="networking.k8s.io")
        return await self._list_or_watch(request, "networkpolicies", namespace, "NetworkPolicy",
                                         "networking.k8s.io/v1")

    async def _create_policy(self, request):
        namespace = self._namespace(request)
        group = "networking.k8s.io"
        self._authorize(request, "create", "networkpolicies", namespace=namespace, group=group)
        body, warnings = await self._decode(request, "NetworkPolicy", "networking.k8s.io/v1", schema.NETWORK_POLICY)
        self._check_namespace_matches(body, namespace)
        body.update({"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy"})
        body["metadata"]["generation"] = 1
        errors = schema.validate_network_policy(body)
        name = body["metadata"].get("name", "")
        if errors:
            raise kubestatus.invalid("NetworkPolicy", name, errors, group)
        if self.store.get("networkpolicies", namespace, name) is not None:
            raise kubestatus.already_exists("networkpolicies", name, group)
        policy = self.store.create("networkpolicies", body)
        headers = {"Warning": ", ".join(warnings)} if warnings else None
        return _json(policy, status=201, headers=headers)

    async def _get_policy(self, request):
        namespace, name = self._namespace(request), request.match_info["name"]
        group = "networking.k8s.io"
        self._authorize(request, "get", "networkpolicies", name=name, namespace=namespace, group=group)
        policy = self.store.get("networkpolicies", namespace, name)
        if policy is None:
            raise kubestatus.not_found("networkpolicies", name, group)
        return _json(policy)

    async def _delete_policy(self, request):
        namespace, name = self._namespace(request), request.match_info["name"]
        group = "networking.k8s.io"
        self._authorize(request, "delete", "networkpolicies", name=name, namespace=namespace, group=group)
        deleted = self.store.delete("networkpolicies", namespace, name)
        if deleted is None:
            raise kubestatus.not_found("networkpolicies", name, group)
        # Resources deleted at once answer with a Success Status naming what went.
        return _json({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success",
                      "details": {"name": name, "group": group, "kind": "networkpolicies",
                                  "uid": deleted["metadata"]["uid"]}})

    async def _access_review(self, request):
        self._authorize(request, "create", "selfsubjectaccessreviews", group="authorization.k8s.io")
        body, _ = await self._decode(request, "SelfSubjectAccessReview", "authorization.k8s.io/v1",
                                     schema.SELF_SUBJECT_ACCESS_REVIEW)
        spec = body.get("spec") or {}
        attributes = spec.get("resourceAttributes")
        user = request["user"]
        if attributes is None and spec.get("nonResourceAttributes") is None:
            raise kubestatus.invalid("SelfSubjectAccessReview", "", [(
                "spec.resourceAttributes", "FieldValueRequired", "Required value: exactly one of "
                "nonResourceAttributes or resourceAttributes must be specified",
                "spec.resourceAttributes: Required value: exactly one of nonResourceAttributes or resourceAttributes "
                "must be specified")], "authorization.k8s.io")
        if attributes is not None:
            allowed = access.allowed(user, attributes.get("verb", ""), attributes.get("group", ""),
                                     attributes.get("resource", ""), attributes.get("subresource", ""))
        else:
            allowed = access.ADMIN_GROUP in user.groups
        status = {"allowed": allowed}
        if allowed:
            status["reason"] = access.allow_reason(user)
        return _json({"kind": "SelfSubjectAccessReview", "apiVersion": "authorization.k8s.io/v1",
                      "metadata": {"creationTimestamp": None}, "spec": spec, "status": status}, status=201)

    async def _who_am_i(self, request):
        """Who the credentials prove the caller to be (`kubectl auth whoami`): tests see which method was used."""
        await self._decode(request, "SelfSubjectReview", "authentication.k8s.io/v1", schema.SELF_SUBJECT_REVIEW)
        user = request["user"]
        return _json({"kind": "SelfSubjectReview", "apiVersion": "authentication.k8s.io/v1",
                      "metadata": {"creationTimestamp": None},
                      "status": {"userInfo": {"username": user.name, "groups": user.groups}}}, status=201)

    async def _pod_metrics(self, request):
        namespace, name = self._namespace(request), request.match_info["name"]
        self._authorize(request, "get", "pods", name=name, namespace=namespace, group="metrics.k8s.io")
        pod = self.store.get("pods", namespace, name)
        found = await metrics.pod_metrics(self.docker, self.runtime, pod) if pod else None
        if found is None:
            # metrics-server's words for a pod it has no sample of: kind podmetrics, name "namespace/name".
            raise kubestatus.StatusError(404, "NotFound", f'podmetrics.metrics.k8s.io "{namespace}/{name}" not found',
                                         {"name": f"{namespace}/{name}", "group": "metrics.k8s.io",
                                          "kind": "podmetrics"})
        return _json(found)

    async def _pod_metrics_list(self, request):
        namespace = self._namespace(request)
        self._authorize(request, "list", "pods", namespace=namespace, group="metrics.k8s.io")
        labels = query_selectors.label_matcher(request.query.get("labelSelector"))
        pods = [p for p in self.store.list("pods", namespace) if labels(p["metadata"].get("labels") or {})]
        items = [m for m in await asyncio.gather(*(metrics.pod_metrics(self.docker, self.runtime, p) for p in pods)) if m]
        return _json({"kind": "PodMetricsList", "apiVersion": "metrics.k8s.io/v1beta1",
                      "metadata": {}, "items": items})
