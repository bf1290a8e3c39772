"""metav1.Status error bodies, formatted the way the real API server formats them.

Clients (client-go, the Python client, our C++ backend) decide what went wrong from `reason` and `code`,
and show `message` to people, so the wording follows k8s.io/apimachinery/pkg/api/errors exactly.
"""

import json

from aiohttp import web


def compact_json(body):
    """JSON bytes without spaces between tokens, as Go's encoder writes them."""
    return json.dumps(body, separators=(",", ":")).encode()


def status_body(code, reason, message, details=None):
    body = {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": message,
        "reason": reason,
    }
    if details is not None:
        body["details"] = details
    body["code"] = code
    return body


class StatusError(Exception):
    """Raised anywhere in a handler; the middleware turns it into the Status response."""

    def __init__(self, code, reason, message, details=None):
        super().__init__(message)
        self.body = status_body(code, reason, message, details)
        self.code = code

    def response(self):
        return web.Response(status=self.code, body=compact_json(self.body),
                            headers={"Content-Type": "application/json"})


def _details(resource, name, group=""):
    details = {}
    if name:
        details["name"] = name
    if group:
        details["group"] = group
    details["kind"] = resource
    return details


def _qualified(resource, group):
    return f"{resource}.{group}" if group else resource


def not_found(resource, name, group=""):
    return StatusError(404, "NotFound", f'{_qualified(resource, group)} "{name}" not found',
                       _details(resource, name, group))


def already_exists(resource, name, group=""):
    return StatusError(409, "AlreadyExists", f'{_qualified(resource, group)} "{name}" already exists',
                       _details(resource, name, group))


def forbidden(resource, name, reason_text, group=""):
    # apierrors.NewForbidden: `<resource> "<name>" is forbidden: <reason>`, without the name for collections.
    subject = f'{_qualified(resource, group)} "{name}"' if name else _qualified(resource, group)
    return StatusError(403, "Forbidden", f"{subject} is forbidden: {reason_text}", _details(resource, name, group))


def rbac_denied(user, verb, resource, subresource, name, namespace, group=""):
    # The RBAC authorizer's reason, as the API server words it for a denied request.
    full = f"{resource}/{subresource}" if subresource else resource
    where = f' in the namespace "{namespace}"' if namespace else " at the cluster scope"
    reason = f'User "{user}" cannot {verb} resource "{full}" in API group "{group}"{where}'
    return forbidden(resource, name, reason, group)


def unauthorized():
    return StatusError(401, "Unauthorized", "Unauthorized")


def bad_request(message):
    return StatusError(400, "BadRequest", message)


def invalid(kind, name, causes, group=""):
    """causes: list of (field, cause reason, short message, rendered error) as field.ErrorList renders them."""
    rendered = [c[3] for c in causes]
    summary = rendered[0] if len(rendered) == 1 else "[" + ", ".join(rendered) + "]"
    details = {"name": name} if name else {}
    if group:
        details["group"] = group
    details["kind"] = kind
    details["causes"] = [{"reason": reason, "message": msg, "field": fld} for fld, reason, msg, _ in causes]
    return StatusError(422, "Invalid", f'{kind}{"." + group if group else ""} "{name}" is invalid: {summary}', details)


def expired(message):
    return status_body(410, "Expired", message)


def success_status():
    """The Status a remote command's error channel carries when the command succeeded."""
    return {"metadata": {}, "status": "Success"}
