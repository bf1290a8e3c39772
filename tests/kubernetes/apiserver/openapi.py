"""Just enough OpenAPI v3 for kubectl's server-side field validation check.

Before create/apply, kubectl asks whether the server supports ?fieldValidation for the kind: it reads
/openapi/v3, then the group-version's document, and looks for the kind's PATCH operation (found by its
x-kubernetes-group-version-kind) with a `fieldValidation` query parameter. With that, kubectl sends
fieldValidation=Strict and lets this server reject unknown fields, instead of validating against a full schema.
"""

_KINDS = {
    "api/v1": [("", "v1", "Pod", "/api/v1/namespaces/{namespace}/pods/{name}")],
    "apis/networking.k8s.io/v1": [("networking.k8s.io", "v1", "NetworkPolicy",
                                   "/apis/networking.k8s.io/v1/namespaces/{namespace}/networkpolicies/{name}")],
}
_HASH = "0123456789ABCDEF"


def root():
    return {"paths": {gv: {"serverRelativeURL": f"/openapi/v3/{gv}?hash={_HASH}"} for gv in _KINDS}}


def group_version(gv):
    if gv not in _KINDS:
        return None
    paths = {}
    for group, version, kind, path in _KINDS[gv]:
        operation = {
            "x-kubernetes-group-version-kind": {"group": group, "version": version, "kind": kind},
            "x-kubernetes-action": "patch",
            "parameters": [{"name": "fieldValidation", "in": "query", "schema": {"type": "string"},
                            "description": "Strict, Warn or Ignore: what to do with unknown or duplicate fields"}],
            "responses": {"200": {"description": "OK"}},
        }
        paths[path] = {"patch": operation}
    return {"openapi": "3.0.0", "info": {"title": "Kubernetes", "version": "v1.32.0"}, "paths": paths,
            "components": {"schemas": {}}}
