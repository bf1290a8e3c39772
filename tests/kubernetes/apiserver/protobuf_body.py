"""Decoding of the few protobuf request bodies kubectl sends, into the JSON objects the handlers take.

kubectl's typed clients POST `application/vnd.kubernetes.protobuf` for built-in kinds (`kubectl auth can-i` a
SelfSubjectAccessReview, `kubectl auth whoami` a SelfSubjectReview, `kubectl create namespace` a Namespace). The body is the `k8s\\0` magic and a
runtime.Unknown envelope (1 typeMeta {1 apiVersion, 2 kind}, 2 raw) around the object's generated message; only
the fields below are read. Answers stay JSON: clients decode by the response's Content-Type.
"""

MAGIC = b"k8s\x00"


def _fields(data):
    """(field number, wire type, value) of one message: varints as int, length-delimited as bytes."""
    position = 0
    while position < len(data):
        key, position = _varint(data, position)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, position = _varint(data, position)
        elif wire == 2:
            size, position = _varint(data, position)
            value, position = data[position:position + size], position + size
        elif wire == 1:
            value, position = data[position:position + 8], position + 8
        elif wire == 5:
            value, position = data[position:position + 4], position + 4
        else:
            raise ValueError(f"unsupported wire type {wire}")
        yield number, wire, value


def _varint(data, position):
    result, shift = 0, 0
    while True:
        byte = data[position]
        position += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, position
        shift += 7


def _strings(data, names):
    """A message whose fields are all strings, as a dict of the named ones that are set."""
    out = {}
    for number, wire, value in _fields(data):
        if wire == 2 and number in names and value:
            out[names[number]] = value.decode()
    return out


def _object_meta(data):
    return _strings(data, {1: "name", 2: "generateName", 3: "namespace"})


def _self_subject_access_review(raw):
    body = {"spec": {}}
    for number, _, value in _fields(raw):
        if number == 1:
            body["metadata"] = _object_meta(value)
        elif number == 2:
            for spec_number, _, spec_value in _fields(value):
                if spec_number == 1:
                    body["spec"]["resourceAttributes"] = _strings(spec_value, {
                        1: "namespace", 2: "verb", 3: "group", 4: "version", 5: "resource", 6: "subresource",
                        7: "name"})
                elif spec_number == 2:
                    body["spec"]["nonResourceAttributes"] = _strings(spec_value, {1: "path", 2: "verb"})
    return body


def _namespace(raw):
    body = {}
    for number, _, value in _fields(raw):
        if number == 1:
            body["metadata"] = _object_meta(value)
    return body


_KINDS = {"SelfSubjectAccessReview": _self_subject_access_review, "Namespace": _namespace,
          "SelfSubjectReview": _namespace}  # both carry only metadata that matters here


def decode(payload, kind):
    """The object as JSON, or None when the body is not a protobuf `kind` this module knows."""
    if not payload.startswith(MAGIC) or kind not in _KINDS:
        return None
    type_meta, raw = {}, b""
    for number, _, value in _fields(payload[len(MAGIC):]):
        if number == 1:
            type_meta = _strings(value, {1: "apiVersion", 2: "kind"})
        elif number == 2:
            raw = value
    if type_meta.get("kind") != kind:
        return None
    return {"apiVersion": type_meta.get("apiVersion", ""), "kind": kind, **_KINDS[kind](raw)}
