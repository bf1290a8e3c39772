"""Authentication (client certificate or bearer token, nothing anonymous) and a fixed RBAC policy.

The policy stands in for a cluster's Roles: system:masters may do everything; every other authenticated user
may read pods, their logs and namespaces and ask what it may do (SelfSubjectAccessReview), and nothing else.
"""

import base64

from credentials import ADMIN_GROUP

# (api group, resource, verb) any authenticated user is granted; "*" matches anything.
_READER_RULES = {
    ("", "pods", "get"), ("", "pods", "list"), ("", "pods", "watch"),
    ("", "pods/log", "get"), ("", "pods/status", "get"),
    ("", "namespaces", "get"),
    ("node.k8s.io", "runtimeclasses", "get"), ("node.k8s.io", "runtimeclasses", "list"),
    ("authorization.k8s.io", "selfsubjectaccessreviews", "create"),
    ("authentication.k8s.io", "selfsubjectreviews", "create"),
}


class User:
    def __init__(self, name, groups):
        self.name = name
        self.groups = groups


_WEBSOCKET_TOKEN = "base64url.bearer.authorization.k8s.io."


def _bearer_token(request):
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        return header[len("Bearer "):].strip()
    # Browsers cannot set headers on a WebSocket: the real server also takes the token as a subprotocol.
    for protocol in request.headers.get("Sec-WebSocket-Protocol", "").split(","):
        protocol = protocol.strip()
        if protocol.startswith(_WEBSOCKET_TOKEN):
            encoded = protocol[len(_WEBSOCKET_TOKEN):]
            try:
                return base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)).decode()
            except (ValueError, UnicodeDecodeError):
                return ""
    return None


def authenticate(request, users_by_token):
    """The user the request proves to be, or None (the caller answers 401)."""
    token = _bearer_token(request)
    if token is not None:
        found = users_by_token.get(token)
        # A wrong token is a failed login even if a certificate is also presented, as on the real server.
        return User(*found) if found else None
    peercert = request.transport.get_extra_info("peercert") if request.transport else None
    if peercert:
        name, groups = None, []
        for rdn in peercert.get("subject", ()):
            for key, value in rdn:
                if key == "commonName":
                    name = value
                elif key == "organizationName":
                    groups.append(value)
        if name:
            return User(name, groups + ["system:authenticated"])
    return None


def allowed(user, verb, group, resource, subresource=""):
    if ADMIN_GROUP in user.groups:
        return True
    full = f"{resource}/{subresource}" if subresource else resource
    return (group, full, verb) in _READER_RULES


def allow_reason(user):
    if ADMIN_GROUP in user.groups:
        return f'RBAC: allowed by ClusterRoleBinding "cluster-admin" of ClusterRole "cluster-admin" to Group "{ADMIN_GROUP}"'
    return 'RBAC: allowed by ClusterRoleBinding "llm-sandbox-reader" of ClusterRole "llm-sandbox-reader" to Group ' \
           '"system:authenticated"'
